import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Authenticator } from '../auth';
import type { Ability } from '../auth/types';
import { setCacheHeaders, setCallerCacheHeaders } from './cache-headers';
import type { EngineReadiness } from './engine-readiness';
import { setAbility } from './request-context';

/**
 * Express middleware that authenticates the request once and attaches the caller's ability to it
 * (`getAbility(req)` reads it). An unknown or expired API token reaches `next(err)` as a 401 UnauthorizedError;
 * permission checks (403) are the routes' business. With `readiness` (engine start-up), requests first pass its
 * gate: they wait for the first start-up attempt (at most `readyWaitMS`), and get a 503 ServiceUnavailableError
 * with `Retry-After` and the reason when it takes longer, and at once when the engine did not start; once it has started they no longer pay the check.
 * Every answer varies on `Authorization`, and is `Cache-Control: private` for an authenticated caller
 * (cache-headers.ts).
 *
 * @example
 * ```ts
 * router.use(authMiddleware(createAuth(options.auth, registry), createEngineReadiness(() => engine.init(specs))));
 * ```
 */
export function authMiddleware(auth: Authenticator, readiness?: EngineReadiness): RequestHandler {
  const authenticate = (req: Request, res: Response, next: NextFunction): void => {
    let known: Ability | undefined;
    try {
      known = auth.authenticateSync?.(req);
    } catch (err) {
      return next(err);
    }
    if (known) {
      setAbility(req, known);
      return next();
    }
    auth.authenticate(req).then(
      (ability) => {
        setAbility(req, ability);
        setCallerCacheHeaders(res, ability);
        next();
      },
      (err: unknown) => next(err),
    );
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    setCacheHeaders(req, res);
    const waiting = readiness?.gate();
    if (!waiting) return authenticate(req, res, next);
    waiting.then(
      () => authenticate(req, res, next),
      (err: unknown) => {
        res.set('Retry-After', String(readiness!.retryAfterSeconds));
        next(err);
      },
    );
  };
}
