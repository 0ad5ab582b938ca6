import { ConfigurationError, emitWarning } from '../errors';

/** The shortest `jwtSecret` taken without a word: 32 bytes, what `openssl rand -base64 32` makes (256 bits). */
export const MIN_JWT_SECRET_BYTES = 32;

/** The messages already emitted in this process: one warning per secret length, whatever the routers. */
const reported = new Set<string>();

/**
 * Checks the strength of the users' JWT secret at start-up: anyone who guesses it can sign a JWT for any user.
 * A secret shorter than {@link MIN_JWT_SECRET_BYTES} UTF-8 bytes is refused under `NODE_ENV=production`
 * (`CR_SHORT_JWT_SECRET` ConfigurationError), and warned about otherwise (the `CR_SHORT_JWT_SECRET` start-up
 * warning, once per process; not under `NODE_ENV=test`, where fixtures use short secrets on purpose). The
 * message gives the length, never the secret.
 *
 * @example
 * checkJwtSecret('x'); // (node:1234) [CR_SHORT_JWT_SECRET] ContentRouterWarning: auth.users.jwtSecret is 1 byte long ...
 */
export function checkJwtSecret(secret: string, env: NodeJS.ProcessEnv = process.env): void {
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes >= MIN_JWT_SECRET_BYTES) return;
  const message =
    `auth.users.jwtSecret is ${bytes} byte${bytes === 1 ? '' : 's'} long, shorter than ${MIN_JWT_SECRET_BYTES}: a short or chosen secret ` +
    "can be guessed, and whoever has it signs a login as any user. Make one with `openssl rand -base64 32` and pass it from the environment (Strapi's JWT_SECRET; see docs/security.md).";
  if (env.NODE_ENV === 'production') throw new ConfigurationError('CR_SHORT_JWT_SECRET', `${message} Refused under NODE_ENV=production.`);
  if (env.NODE_ENV === 'test' || reported.has(message)) return;
  reported.add(message);
  emitWarning('CR_SHORT_JWT_SECRET', message);
}
