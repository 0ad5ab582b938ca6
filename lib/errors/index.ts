export * from './application-error';
export { ConfigurationError, type ConfigurationErrorCode } from './configuration-error';
export { emitWarning, warningsEmitted, WARNING_TYPE, type WarningCode } from './emit-warning';
export { redactCredentials } from './redact-credentials';
