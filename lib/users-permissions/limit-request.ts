import type { Response } from 'express';
import { RateLimitError, rateLimitIpKey, rateLimitKey, type RateLimiter } from './rate-limit';

/** The routes whose key names the body's `email`: their requests are also counted per IP, whatever the address. */
const PER_ADDRESS = ['/auth/local/register', '/auth/forgot-password', '/auth/send-email-confirmation'];

/** What one rate-limited request is counted by. */
export interface LimitedRequest {
  /** The path as requested (`req.baseUrl + req.path`). */
  readonly path: string;
  readonly ip: string;
  readonly body: unknown;
}

/**
 * Counts a request to a rate-limited auth route, or refuses it with a 429 whose `Retry-After` gives the seconds
 * until its window ends. The routes that take an `email` (register, forgot-password, send-email-confirmation)
 * are counted per IP first (`maxPerIp`, whatever the address: one caller cannot try address after address), then
 * per address and IP (`max`, Strapi's key); the others per IP (`max`).
 *
 * @example
 * await limitRequest(limiter, 50, { path: req.baseUrl + req.path, ip: req.ip ?? '', body: req.body }, res);
 */
export async function limitRequest(limiter: RateLimiter, maxPerIp: number, req: LimitedRequest, res: Response, now: () => number = Date.now): Promise<void> {
  const refuse = (resetAt: number): never => {
    res.set('Retry-After', String(Math.max(1, Math.ceil((resetAt - now()) / 1000))));
    throw new RateLimitError();
  };
  const path = req.path.toLowerCase().replace(/\/+$/, '');
  if (PER_ADDRESS.some((route) => path.endsWith(route))) {
    const perIp = await limiter.take(rateLimitIpKey(req.path, req.ip), maxPerIp);
    if (!perIp.allowed) refuse(perIp.resetAt);
  }
  const hit = await limiter.take(rateLimitKey(req.path, req.ip, req.body));
  if (!hit.allowed) refuse(hit.resetAt);
}
