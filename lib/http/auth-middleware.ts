import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Authenticator } from '../auth';
import { setAbility } from './request-context';

/**
 * Express middleware that authenticates the request once and attaches the caller's ability to it
 * (`getAbility(req)` reads it). An unknown or expired API token reaches `next(err)` as a 401 UnauthorizedError;
 * permission checks (403) are the routes' business.
 *
 * @example
 * ```ts
 * router.use(authMiddleware(createAuth(options.auth, registry)));
 * ```
 */
export function authMiddleware(auth: Authenticator): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction): void => {
    auth.authenticate(req).then(
      (ability) => {
        setAbility(req, ability);
        next();
      },
      (err: unknown) => next(err),
    );
  };
}
