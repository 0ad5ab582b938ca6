import type { Request, Response } from 'express';
import type { Ability } from '../auth/types';

/** The Cache-Control of an answer that depends on who asked: no shared cache may store it. */
export const PRIVATE = 'private';

/**
 * The caching headers of every answer of the router, set before authentication so that errors (401, 403, 503)
 * carry them too. Strapi sends neither (its answers carry `Vary: Origin` from its CORS middleware and no
 * Cache-Control); a shared cache in front of the API (a CDN, a reverse proxy) could then serve one caller's
 * answer to another:
 * - `Vary: Authorization` on every answer, anonymous ones included: the answer depends on the caller, so a cache
 *   must key it on that header (RFC 9110, section 12.5.5). Public answers stay cacheable.
 * - `Cache-Control: private` when the request carries an `Authorization` header, whatever its value (an API
 *   token, the host's JWT, a malformed one): a shared cache must not store the answer (RFC 9111, section 5.2.2.7).
 *   RFC 9111 section 3.5 already forbids a shared cache to reuse an answer to an authenticated request unless the
 *   answer allows it; `private` says so explicitly, for caches configured to store more.
 *
 * A Cache-Control the host app set before the router is kept: it is the host's decision.
 */
export function setCacheHeaders(req: Request, res: Response): void {
  // res.vary parses and merges the header (the `vary` package): only needed when the host app set one first.
  // Node's own getHeader/setHeader: Express's res.get/res.set add nothing for these two headers.
  if (res.getHeader('Vary') === undefined) res.setHeader('Vary', 'Authorization');
  else res.vary('Authorization');
  if (req.headers.authorization !== undefined) markPrivate(res);
}

/**
 * `Cache-Control: private` for an answer to a caller `auth.resolve` recognised without an `Authorization` header
 * (a session cookie, say): the answer is that caller's. Anonymous answers (the Public role) are left as they are.
 */
export function setCallerCacheHeaders(res: Response, ability: Ability): void {
  if (ability.subject !== 'public') markPrivate(res);
}

/** `Cache-Control: private`, unless the answer is sent or the host app chose its own Cache-Control. */
function markPrivate(res: Response): void {
  if (!res.headersSent && res.getHeader('Cache-Control') === undefined) res.setHeader('Cache-Control', PRIVATE);
}
