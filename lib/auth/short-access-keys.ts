import { randomBytes } from 'node:crypto';
import { emitWarning } from '../errors';
import type { ApiTokenOption } from './auth-options';

/**
 * The length of the access keys Strapi generates: `crypto.randomBytes(128).toString('hex')`, 256 hex characters
 * (1024 random bits; `create` and `regenerate` in strapi/strapi packages/core/admin/server/src/services/api-token.ts).
 */
export const STRAPI_ACCESS_KEY_LENGTH = 256;

/**
 * A new access key, generated as Strapi generates them (128 random bytes in hex).
 *
 * @example
 * generateAccessKey().length; // 256
 */
export function generateAccessKey(): string {
  return randomBytes(STRAPI_ACCESS_KEY_LENGTH / 2).toString('hex');
}

/** The messages already emitted in this process: the same tokens are reported once, whatever the routers. */
const reported = new Set<string>();

/**
 * Emits the `CR_SHORT_ACCESS_KEY` start-up warning when API tokens are given as plain access keys shorter than
 * Strapi's generated ones: a short or hand-chosen key (`changeme`, a word, a date) can be guessed, and nothing
 * slows down guessing over HTTP. Tokens given only as a `hash` cannot be measured. One warning names every short
 * token (by name and length, never the key); the same warning is emitted once per process. Not under
 * `NODE_ENV=test`, where fixtures use short keys on purpose (as Express writes no error log under `test`).
 *
 * @example
 * warnShortAccessKeys([{ name: 'ci', type: 'full-access', accessKey: 'changeme' }]);
 * // (node:1234) [CR_SHORT_ACCESS_KEY] ContentRouterWarning: auth.apiTokens: the access key of "ci" (8 characters) ...
 */
export function warnShortAccessKeys(tokens: readonly ApiTokenOption[]): void {
  if (process.env.NODE_ENV === 'test') return;
  const short = tokens.filter((t) => t.accessKey !== undefined && t.accessKey.length < STRAPI_ACCESS_KEY_LENGTH);
  if (short.length === 0) return;
  const list = short.map((t) => `"${t.name}" (${t.accessKey!.length} characters)`).join(', ');
  const message =
    `auth.apiTokens: the access key of ${list} is shorter than the ${STRAPI_ACCESS_KEY_LENGTH} hex characters Strapi ` +
    'generates (128 random bytes), and a short or chosen key can be guessed. Generate keys with ' +
    '`npx content-router hash-token --generate` (with `--salt` or API_TOKEN_SALT set to auth.salt, it prints their ' +
    'hash too: configure the hash rather than the key; see docs/security.md).';
  if (reported.has(message)) return;
  reported.add(message);
  emitWarning('CR_SHORT_ACCESS_KEY', message);
}
