import { createHash } from 'node:crypto';
import { DuplicateKeyError, type Engine, type IndexSpec } from '../engine';
import { ApplicationError } from '../errors';
import { RATE_LIMIT_COLLECTION } from './content-types';

/** 429: too many requests to an auth route (Strapi's `RateLimitError`). */
export class RateLimitError extends ApplicationError {
  override name = 'RateLimitError';
  override status = 429;
  constructor(message = 'Too many requests, please try again later.', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

/** The rate limit's collection: one row per key and window, found by key; expired rows by `resetAt`. */
export const RATE_LIMIT_INDEXES: readonly IndexSpec[] = [
  { keys: { key: 1 }, unique: true, name: 'key' },
  { keys: { resetAt: 1 }, name: 'reset_at' },
];

/** One counted request: whether it is within the window's maximum, and when the window ends (epoch ms). */
export interface RateLimitHit {
  readonly allowed: boolean;
  readonly resetAt: number;
}

/** Counts requests per key in fixed windows stored in the engine, so that every app instance shares the count. */
export interface RateLimiter {
  /** Counts one request of `key` against `max` (default: the limiter's), and says when its window ends. */
  take(key: string, max?: number): Promise<RateLimitHit>;
}

/**
 * koa2-ratelimit's fixed window, as Strapi's users-permissions plugin uses it: the first request of a key opens a
 * window of `interval` ms; every request in it counts (answered or not); past `max` the request is refused. The
 * count lives in the engine (`up_rate_limits`): an atomic `$inc` of the key's open window, else the key's expired
 * row reopened (a conditional update: of two instances, one reopens and the other then counts in it), else a new
 * row whose unique `key` index settles a race likewise. Other keys' expired rows are deleted at most once per
 * `interval` by each process, not on every request: a request writes one row, its own.
 *
 * @example
 * const limiter = createRateLimiter(engine, { interval: 60_000, max: 10 });
 * if (!(await limiter.take(rateLimitKey('/api/auth/local', req.ip, req.body))).allowed) throw new RateLimitError();
 */
export function createRateLimiter(engine: Engine, options: { interval: number; max: number }, now: () => number = Date.now): RateLimiter {
  let sweptAt = -Infinity;
  const counted = async (key: string, at: number): Promise<{ count: number; resetAt: number } | undefined> => {
    const matched = await engine.updateMany(RATE_LIMIT_COLLECTION, { key, resetAt: { $gt: at } }, { $inc: { count: 1 } });
    if (matched === 0) return undefined;
    const [row] = await engine.find(RATE_LIMIT_COLLECTION, { key }, { limit: 1 });
    return { count: typeof row?.count === 'number' ? row.count : Infinity, resetAt: typeof row?.resetAt === 'number' ? row.resetAt : at + options.interval };
  };
  const opened = async (key: string, at: number): Promise<boolean> => {
    const resetAt = at + options.interval;
    if ((await engine.updateMany(RATE_LIMIT_COLLECTION, { key, resetAt: { $lte: at } }, { $set: { count: 1, resetAt } })) > 0) return true;
    try {
      await engine.insertMany(RATE_LIMIT_COLLECTION, [{ key, count: 1, resetAt }]);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  };
  const sweep = async (at: number): Promise<void> => {
    if (at - sweptAt < options.interval) return;
    sweptAt = at;
    await engine.deleteMany(RATE_LIMIT_COLLECTION, { resetAt: { $lte: at } });
  };
  const take = async (key: string, max = options.max): Promise<RateLimitHit> => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const at = now();
      const hit = await counted(key, at);
      if (hit) return { allowed: hit.count <= max, resetAt: hit.resetAt };
      if (await opened(key, at)) {
        await sweep(at);
        return { allowed: 1 <= max, resetAt: at + options.interval };
      }
    }
    return { allowed: false, resetAt: now() + options.interval };
  };
  return { take };
}

/** The auth routes whose key never includes `body.email` (Strapi's ROUTES_WITHOUT_IDENTIFIER, GHSA-7mqx-wwh4-f9fw). */
const WITHOUT_IDENTIFIER = ['/auth/local', '/auth/reset-password', '/auth/change-password'];

/** At most this many characters of the path count in a key (the routes' paths are far shorter). */
const MAX_PATH = 256;

/** The identifier of a key: a lower-cased `body.email` that could be an address (bounded), else none. */
function identifierOf(body: unknown, maxLength: number): string | undefined {
  const email = (body as { email?: unknown } | null | undefined)?.email;
  if (typeof email !== 'string' || email === '' || email.length > maxLength || !email.includes('@')) return undefined;
  return email.toLowerCase();
}

/** The lower-cased path without repeated or trailing slashes, as Strapi's `buildPrefixKey` normalizes it. */
export function normalizedRoutePath(path: string): string {
  return path.slice(0, MAX_PATH).toLowerCase().replace(/\/{2,}/g, '/').replace(/\/+$/, '') || '/';
}

const digest = (text: string): string => createHash('sha256').update(text).digest('base64url');

/**
 * Strapi's key of a rate-limited request (`buildPrefixKey`): the lower-cased path without trailing slashes and
 * the caller's IP, plus the lower-cased `body.email` on the routes that take one (register, forgot-password,
 * send-email-confirmation), so that one address cannot lock out another's. An `email` that cannot be an address
 * (not a string, longer than `maxEmail`, no `@`) counts as none (`unknownIdentifier`): anonymous requests with
 * ever new junk "addresses" all share one window per IP instead of leaving a row each.
 *
 * @example
 * rateLimitKeyText('/api/auth/local', '203.0.113.1', {}); // 'noIdentifier:/api/auth/local:203.0.113.1'
 */
export function rateLimitKeyText(path: string, ip: string, body: unknown, maxEmail = 255): string {
  const normalized = normalizedRoutePath(path);
  const caller = ip.slice(0, 64);
  if (WITHOUT_IDENTIFIER.some((route) => normalized.endsWith(route)) || normalized.includes('/connect/')) {
    return `noIdentifier:${normalized}:${caller}`;
  }
  return `${identifierOf(body, maxEmail) ?? 'unknownIdentifier'}:${normalized}:${caller}`;
}

/**
 * The stored key of a rate-limited request, of fixed size whatever the request: the SHA-256 (base64url, 43
 * characters) of {@link rateLimitKeyText}. Neither an address nor a huge body ever reaches the stored row.
 *
 * @example
 * rateLimitKey('/api/auth/local/register', '203.0.113.1', { email: 'a@example.com' }).length; // 43
 */
export function rateLimitKey(path: string, ip: string, body: unknown, maxEmail = 255): string {
  return digest(rateLimitKeyText(path, ip, body, maxEmail));
}

/**
 * The key of every request of one IP to a route, whatever the identifier (the per-IP window of register,
 * forgot-password and send-email-confirmation, besides their per-address one).
 *
 * @example
 * rateLimitIpKey('/api/auth/local/register', '203.0.113.1');
 */
export function rateLimitIpKey(path: string, ip: string): string {
  return digest(`perIp:${normalizedRoutePath(path)}:${ip.slice(0, 64)}`);
}
