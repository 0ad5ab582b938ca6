import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Authenticator } from '../auth';
import type { Ability } from '../auth/types';
import { setAbility } from './request-context';

/**
 * Express middleware that authenticates the request once and attaches the caller's ability to it
 * (`getAbility(req)` reads it). An unknown or expired API token reaches `next(err)` as a 401 UnauthorizedError;
 * permission checks (403) are the routes' business. With `ready` (engine initialization), requests first wait
 * for it (its rejection reaches `next(err)`); once it has settled successfully they no longer pay the wait.
 *
 * @example
 * ```ts
 * router.use(authMiddleware(createAuth(options.auth, registry), engineReady));
 * ```
 */
export function authMiddleware(auth: Authenticator, ready?: Promise<void>): RequestHandler {
  const authenticate = (req: Request, next: NextFunction): void => {
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
        next();
      },
      (err: unknown) => next(err),
    );
  };
  let isReady = ready === undefined;
  const onReady = (): void => {
    isReady = true;
  };
  ready?.then(onReady, () => undefined);
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (isReady) return authenticate(req, next);
    ready!.then(() => authenticate(req, next), next);
  };
}
