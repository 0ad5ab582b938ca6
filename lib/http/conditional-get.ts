import { hash } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { ARRAY_BYTES } from '../format/memo-budget';
import { BoundedMemo, MemoBudget } from '../util/bounded-memo';

/**
 * A strong entity tag of the exact bytes of an answer (RFC 9110, section 8.8.3): the first 128 bits of their
 * SHA-256, base64url, quoted. The same bytes always give the same tag, on every instance and after a restart,
 * so a client (or a CDN) revalidating against any instance gets its 304. Strong, since the bytes are the
 * representation's own; a proxy that compresses them is the one that must weaken the tag (nginx does, RFC 9110
 * section 8.8.3.3). A string is hashed as the UTF-8 bytes Express sends for it.
 *
 * @example
 * strongEtag('{"data":[]}'); // '"…22 base64url characters…"'
 */
export function strongEtag(body: string | Uint8Array): string {
  // crypto.hash (Node >= 20.12, package.json's engines say >= 20.19): one call, no Hash object per answer.
  return `"${hash('sha256', body, 'buffer').subarray(0, 16).toString('base64url')}"`;
}

/**
 * The bytes the last answers kept for their tags may hold together, in the whole process (two generations,
 * lib/util/bounded-memo): requests choose what is read, so the answers they leave behind share one budget.
 */
export const TAG_MEMO_BYTES = 8 * 1024 * 1024;

const tagMemos = new MemoBudget(TAG_MEMO_BYTES);

/** An answer kept with its tag (the bytes are a view of what was sent: never written again). */
interface TaggedBytes {
  readonly bytes: Uint8Array;
  readonly etag: string;
}

/** The last answer written by each `source` (a compiled writer: one query's reads), with its tag. */
const lastAnswers = new BoundedMemo<object, TaggedBytes>(tagMemos, (kept) => kept.bytes.buffer.byteLength + ARRAY_BYTES);

/** Tags already known for the bytes about to be sent ({@link tagAnswer}), read once by the conditional GET. */
const knownTags = new WeakMap<Uint8Array, string>();

/**
 * Tags `bytes`, an answer `source` wrote (the same source writes the same bytes again as long as what it reads is
 * unchanged), for the conditional GET that sends it: {@link strongEtag} of the bytes, but when they are equal byte
 * for byte to the last answer of `source` its tag is reused, so a repeated answer costs a comparison (memcmp,
 * tens of times cheaper than SHA-256 over 50 KB) instead of a hash. The tag is the one {@link strongEtag} gives for
 * those bytes either way. `bytes` must not be written to once tagged; answers larger than an eighth of the budget
 * are hashed and not kept.
 */
export function tagAnswer(source: object, bytes: Uint8Array): void {
  const last = lastAnswers.get(source);
  let etag: string;
  if (last !== undefined && Buffer.prototype.equals.call(last.bytes, bytes)) {
    etag = last.etag;
  } else {
    etag = strongEtag(bytes);
    if (bytes.buffer.byteLength <= TAG_MEMO_BYTES / 8) lastAnswers.set(source, { bytes, etag });
  }
  knownTags.set(bytes, etag);
}

/** The opaque part of an entity tag (`W/"x"` and `"x"` -> `"x"`): the weak comparison of RFC 9110, section 8.8.3.2. */
function opaque(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/**
 * Whether `If-None-Match` fails for a representation tagged `etag` (RFC 9110, section 13.1.2): `*`, or a list
 * of entity tags one of which matches by the weak comparison. A malformed member matches nothing.
 *
 * @example
 * ifNoneMatchFails('W/"a", "b"', '"a"'); // true: answer 304
 */
export function ifNoneMatchFails(header: string, etag: string): boolean {
  const value = header.trim();
  if (value === '*') return true;
  const mine = opaque(etag);
  // An entity-tag is `[W/]"<etagc>*"`: no comma nor space inside its quotes, so a comma splits the list.
  for (const member of value.split(',')) {
    if (opaque(member.trim()) === mine) return true;
  }
  return false;
}

function isBody(body: unknown): body is string | Uint8Array {
  return typeof body === 'string' || ArrayBuffer.isView(body);
}

/**
 * Conditional GET for the router's answers: every 2xx answer to a `GET` or `HEAD` whose body goes through
 * `res.send` (and so `res.json`) gets a strong `ETag` over the exact bytes sent ({@link strongEtag}), whatever the
 * host app's `etag` setting; a request whose `If-None-Match` names it (or `*`) is answered `304` with no body.
 * The 304 keeps every header the 200 would carry but the representation's own (`Content-Type`,
 * `Content-Length`): `ETag`, `Cache-Control` and `Vary` are set before the body is sent (RFC 9110, section 15.4.5).
 * A request's `Cache-Control: no-cache` does not prevent the 304: it asks for validation with the origin
 * (RFC 9111, section 5.2.1.4), which this is. An ETag the host app set first is kept (Express then checks it).
 * Other methods and answers (errors, 204s) are left as they are.
 */
export const conditionalGet: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') {
    const send = res.send;
    res.send = function sendTagged(this: Response, body?: unknown): Response {
      const status = this.statusCode;
      if (status < 200 || status > 299 || !isBody(body) || this.get('ETag') !== undefined) return send.call(this, body);
      const etag = (typeof body !== 'string' && knownTags.get(body)) || strongEtag(body);
      this.set('ETag', etag);
      const condition = req.headers['if-none-match'];
      if (condition === undefined || !ifNoneMatchFails(condition, etag)) return send.call(this, body);
      this.removeHeader('Content-Type');
      this.removeHeader('Content-Length');
      this.status(304).end();
      return this;
    };
  }
  next();
};
