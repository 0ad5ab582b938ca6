export * from './application-error';
export { ConfigurationError, type ConfigurationErrorCode } from './configuration-error';
