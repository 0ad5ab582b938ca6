import { createHmac, createSecretKey } from 'node:crypto';
import type { ApiTokenOption } from './auth-options';
import { invalidAuthOption } from './auth-options';
import { findDigest, hashAccessKey, randomSalt } from './hash-access-key';

/** A configured API token as kept in memory: only its digest, never the plain value. */
export interface StoredToken {
  readonly name: string;
  readonly type: ApiTokenOption['type'];
  readonly permissions: readonly string[];
  /** Epoch milliseconds; null: never expires. */
  readonly expiresAt: number | null;
}

/** Looks presented tokens up by their HMAC-SHA512 digest, in constant time. */
export interface TokenStore {
  /** Every configured token, in configuration order. */
  readonly tokens: readonly StoredToken[];
  /** The token whose hash matches `presented`, or undefined. Expiry is the caller's business. */
  find(presented: string): StoredToken | undefined;
}

/**
 * Hashes plain access keys once at startup (with `salt`, or a random one when no salt is configured and no token
 * is given as a hash) and keeps digests only. A token given with both `accessKey` and `hash` must agree.
 */
export function createTokenStore(tokens: readonly ApiTokenOption[], salt: string | undefined): TokenStore {
  const key = salt ?? randomSalt();
  const secret = createSecretKey(Buffer.from(key, 'utf8'));
  const digests: Buffer[] = [];
  const stored: StoredToken[] = [];
  tokens.forEach((token, i) => {
    const hex = digestOf(token, key, i);
    const digest = Buffer.from(hex, 'hex');
    if (findDigest(digest, digests) >= 0) {
      throw invalidAuthOption(`auth.apiTokens[${i}]`, 'has the same value as another token');
    }
    digests.push(digest);
    stored.push(
      Object.freeze({
        name: token.name,
        type: token.type,
        permissions: Object.freeze([...(token.permissions ?? [])]),
        expiresAt: token.expiresAt === undefined || token.expiresAt === null ? null : new Date(token.expiresAt).getTime(),
      }),
    );
  });
  return {
    tokens: Object.freeze([...stored]),
    find(presented) {
      // hashAccessKey's HMAC, as bytes, with the salt prepared once: this runs on every request with a token.
      const index = findDigest(createHmac('sha512', secret).update(presented).digest(), digests);
      return index < 0 ? undefined : stored[index];
    },
  };
}

function digestOf(token: ApiTokenOption, key: string, i: number): string {
  const fromKey = token.accessKey === undefined ? undefined : hashAccessKey(token.accessKey, key);
  const given = token.hash?.toLowerCase();
  if (fromKey !== undefined && given !== undefined && fromKey !== given) {
    throw invalidAuthOption(`auth.apiTokens[${i}].hash`, 'is not hashAccessKey(accessKey, salt)');
  }
  return (given ?? fromKey)!;
}
