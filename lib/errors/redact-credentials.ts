/** A URL's user information (`user:password@`), up to the last `@` before the host. */
const USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;
/**
 * Query parameters that carry secrets in a connection string: `password=`, `tlsCertificateKeyFilePassword=`,
 * `authMechanismProperties=AWS_SESSION_TOKEN:...` (https://www.mongodb.com/docs/manual/reference/connection-string-options/),
 * and any `secret`, `token` or `key` parameter.
 */
const SECRET_PARAMETER = /([?&;](?:[a-z0-9_.-]*(?:password|passwd|pwd|secret|token|key)[a-z0-9_.-]*|authMechanismProperties)=)[^&;\s]*/gi;

/**
 * `text` with the credentials of every URL in it replaced by `***`: connection strings end up in error messages
 * (a driver's parse error, a host's own message), and those reach logs and 503 answers.
 *
 * @example
 * redactCredentials('bad uri mongodb://app:s3cret@db:27017/cms?authSource=admin');
 * // 'bad uri mongodb://***@db:27017/cms?authSource=admin'
 */
export function redactCredentials(text: string): string {
  return text.replace(USER_INFO, '$1***@').replace(SECRET_PARAMETER, '$1***');
}
