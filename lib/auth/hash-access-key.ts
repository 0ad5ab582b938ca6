import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConfigurationError } from '../errors';

/**
 * Strapi's storage scheme for API tokens: the hex HMAC-SHA512 of the access key, keyed with the configured salt
 * (`admin.apiToken.salt` in a Strapi project). Store only this hash and the salt; the access key itself need not be
 * kept anywhere on the server.
 *
 * @example
 * ```ts
 * const hash = hashAccessKey(process.env.PREVIEW_TOKEN!, process.env.API_TOKEN_SALT!);
 * // auth: { salt: process.env.API_TOKEN_SALT, apiTokens: [{ name: 'preview', type: 'read-only', hash }] }
 * ```
 * @throws ConfigurationError `CR_INVALID_HASH_INPUT` when the access key or the salt is not a non-empty string
 * (an unset environment variable, say), instead of Node's `ERR_INVALID_ARG_TYPE`.
 */
export function hashAccessKey(accessKey: string, salt: string): string {
  if (typeof salt !== 'string' || salt === '') {
    throw new ConfigurationError('CR_INVALID_HASH_INPUT', `hashAccessKey(accessKey, salt): the salt must be a non-empty string (Strapi's API_TOKEN_SALT, admin.apiToken.salt), got ${kindOf(salt)}`);
  }
  if (typeof accessKey !== 'string' || accessKey === '') {
    throw new ConfigurationError('CR_INVALID_HASH_INPUT', `hashAccessKey(accessKey, salt): the access key must be a non-empty string, got ${kindOf(accessKey)}`);
  }
  return createHmac('sha512', salt).update(accessKey).digest('hex');
}

/** What a wrong argument was, without its value (it may be a secret). */
function kindOf(value: unknown): string {
  if (value === '') return 'an empty string';
  return value === null ? 'null' : typeof value;
}

/** A fresh random salt, used when plain access keys are configured without a salt. */
export function randomSalt(): string {
  return randomBytes(32).toString('hex');
}

/**
 * Finds the index of `candidate` (a 64-byte digest) among `digests`, comparing with `crypto.timingSafeEqual`
 * and always visiting every entry, so neither the match nor its position shows in the time taken.
 * Returns -1 when nothing matches.
 */
export function findDigest(candidate: Buffer, digests: readonly Buffer[]): number {
  let found = -1;
  for (let i = 0; i < digests.length; i += 1) {
    const digest = digests[i]!;
    const equal = digest.length === candidate.length && timingSafeEqual(digest, candidate);
    if (equal && found < 0) found = i;
  }
  return found;
}
