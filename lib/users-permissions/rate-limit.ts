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

/** Counts requests per key in fixed windows stored in the engine, so that every app instance shares the count. */
export interface RateLimiter {
  /** Counts one request of `key`; false when it is over the window's maximum. */
  hit(key: string): Promise<boolean>;
}

/**
 * koa2-ratelimit's fixed window, as Strapi's users-permissions plugin uses it: the first request of a key opens a
 * window of `interval` ms; every request in it counts (answered or not); past `max` the request is refused. The
 * count lives in the engine (`up_rate_limits`): an atomic `$inc` of the key's open window, or a new window row
 * whose unique `key` index settles a race between two instances (the loser counts in the winner's window).
 *
 * @example
 * const limiter = createRateLimiter(engine, { interval: 60_000, max: 10 });
 * if (!(await limiter.hit(`noIdentifier:/api/auth/local:${req.ip}`))) throw new RateLimitError();
 */
export function createRateLimiter(engine: Engine, options: { interval: number; max: number }, now: () => number = Date.now): RateLimiter {
  const counted = async (key: string, at: number): Promise<number | undefined> => {
    const matched = await engine.updateMany(RATE_LIMIT_COLLECTION, { key, resetAt: { $gt: at } }, { $inc: { count: 1 } });
    if (matched === 0) return undefined;
    const [row] = await engine.find(RATE_LIMIT_COLLECTION, { key }, { limit: 1 });
    return typeof row?.count === 'number' ? row.count : options.max + 1;
  };
  return {
    async hit(key) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const at = now();
        const count = await counted(key, at);
        if (count !== undefined) return count <= options.max;
        try {
          await engine.transaction(async () => {
            await engine.deleteMany(RATE_LIMIT_COLLECTION, { resetAt: { $lte: at } });
            await engine.insertMany(RATE_LIMIT_COLLECTION, [{ key, count: 1, resetAt: at + options.interval }]);
          });
          return 1 <= options.max;
        } catch (error) {
          if (!(error instanceof DuplicateKeyError)) throw error;
        }
      }
      return false;
    },
  };
}

/** The auth routes whose key never includes `body.email` (Strapi's ROUTES_WITHOUT_IDENTIFIER, GHSA-7mqx-wwh4-f9fw). */
const WITHOUT_IDENTIFIER = ['/auth/local', '/auth/reset-password', '/auth/change-password'];

/**
 * Strapi's key of a rate-limited request (`buildPrefixKey`): the lower-cased path without trailing slashes and
 * the caller's IP, plus the lower-cased `body.email` on the routes that take one (register, forgot-password), so
 * that one address cannot lock out another's.
 *
 * @example
 * rateLimitKey('/api/auth/local', '203.0.113.1', {}); // 'noIdentifier:/api/auth/local:203.0.113.1'
 */
export function rateLimitKey(path: string, ip: string, body: unknown): string {
  const normalized = path.toLowerCase().replace(/\/{2,}/g, '/').replace(/\/+$/, '') || '/';
  if (WITHOUT_IDENTIFIER.some((route) => normalized.endsWith(route)) || normalized.includes('/connect/')) {
    return `noIdentifier:${normalized}:${ip}`;
  }
  const email = (body as { email?: unknown } | null | undefined)?.email;
  return `${typeof email === 'string' && email !== '' ? email.toLowerCase() : 'unknownIdentifier'}:${normalized}:${ip}`;
}
