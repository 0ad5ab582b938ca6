export * from './application-error';
export { ConfigurationError, type ConfigurationErrorCode } from './configuration-error';
export { redactCredentials } from './redact-credentials';
