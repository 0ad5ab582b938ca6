export * from './application-error';
export { ConfigurationError, type ConfigurationErrorCode } from './configuration-error';
export { emitWarning, WARNING_TYPE, type WarningCode } from './emit-warning';
export { redactCredentials } from './redact-credentials';
