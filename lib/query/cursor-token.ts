import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The longest `pagination[cursor]` read (characters). Longer is a 400 before anything is decoded; a cursor this
 * router would seal longer (sort keys holding very long text) is refused when sealed (lib/query/parse-cursor).
 * Node refuses request heads over 16 KB anyway.
 */
export const MAX_CURSOR_LENGTH = 4096;

/** The key of routers and parsers given none: random, for this process only. */
const PROCESS_KEY = randomBytes(32);

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** The tag: HMAC-SHA-256 truncated to 128 bits (RFC 2104 section 5 allows truncation to half the output or more). */
const TAG_BYTES = 16;

/** The secret a router signs its cursors with (`rest.cursorSecret`), or this process's random key. */
export function cursorKey(secret: string | Uint8Array | undefined): Uint8Array {
  return secret === undefined ? PROCESS_KEY : typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
}

function tag(key: Uint8Array, shape: string, body: string): Buffer {
  return createHmac('sha256', key).update(shape).update('\n').update(body).digest().subarray(0, TAG_BYTES);
}

/**
 * The opaque cursor of `values` for the query whose shape is `shape`: `<base64url(JSON values)>.<base64url(tag)>`,
 * the tag an HMAC-SHA-256 (`key`) of the shape and the body, so that a cursor is only good for the query it was
 * made for and cannot be forged or altered without the key.
 *
 * @example
 * sealCursor(key, shape, ['Hello', 12]) // 'WyJIZWxsbyIsMTJd.3q2-7w...'
 */
export function sealCursor(key: Uint8Array, shape: string, values: readonly unknown[]): string {
  const body = Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
  return `${body}.${tag(key, shape, body).toString('base64url')}`;
}

/**
 * The values of a cursor sealed by {@link sealCursor} with the same key and shape, or a reason it is refused
 * (too long, malformed, forged, altered, or made for another query). Nothing of the cursor is parsed before its
 * tag is checked (in constant time).
 *
 * @example
 * openCursor(key, shape, token) // { ok: true, values: ['Hello', 12] }
 */
export function openCursor(key: Uint8Array, shape: string, token: string): { ok: true; values: unknown[] } | { ok: false; reason: string } {
  if (token.length > MAX_CURSOR_LENGTH) return { ok: false, reason: `longer than ${MAX_CURSOR_LENGTH} characters` };
  const dot = token.indexOf('.');
  const body = token.slice(0, dot);
  const given = token.slice(dot + 1);
  if (dot < 1 || !BASE64URL.test(body) || !BASE64URL.test(given)) return { ok: false, reason: 'not a cursor' };
  const expected = tag(key, shape, body);
  const received = Buffer.from(given, 'base64url');
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) return { ok: false, reason: 'not a cursor of this query' };
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'not a cursor' };
  }
  return Array.isArray(values) ? { ok: true, values } : { ok: false, reason: 'not a cursor' };
}
