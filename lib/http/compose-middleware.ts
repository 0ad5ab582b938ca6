import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Runs one handler as a router layer does: a synchronous throw, or a rejected promise it returns, is `next(err)`. */
export function runHandler(handler: RequestHandler, req: Request, res: Response, next: NextFunction): void {
  let returned: unknown;
  try {
    returned = handler(req, res, next);
  } catch (err) {
    return next(err);
  }
  if (returned !== undefined && typeof (returned as { then?: unknown })?.then === 'function') {
    (returned as PromiseLike<unknown>).then(undefined, (err: unknown) => next(err || new Error('Rejected promise')));
  }
}

/**
 * Middleware that always run one after the other (`(req, res, next)` each, no path), as one layer of a router: each
 * layer a request passes costs the router a path match and the bookkeeping of its `next`, and the content router
 * puts several in front of every request (authentication, conditional GET, the body parsers, ...). They run as the
 * router would run them in a row: `next()` (or `next('route')`) goes to the next one, then past the composition;
 * `next(err)` (or `next('router')`) leaves it at once for the router, which takes it to the error handlers; a
 * synchronous throw or a rejected promise is `next(err)`, as Express does. Error handlers (four arguments) are not
 * for this: pass them to the router.
 *
 * @example
 * router.use(composeMiddleware([authMiddleware(auth, readiness), conditionalGet]));
 */
export function composeMiddleware(handlers: readonly RequestHandler[]): RequestHandler {
  if (handlers.some((handler) => handler.length > 3)) throw new TypeError('composeMiddleware: an error handler (four arguments) belongs to the router');
  if (handlers.length === 0) return (_req, _res, next) => next();
  if (handlers.length === 1) return handlers[0]!;
  const last = handlers.length - 1;
  return function composedMiddleware(req, res, next) {
    let i = 0;
    // One function per request, for the handlers but the last, which is given the router's `next` itself.
    const step = (err?: unknown): void => {
      if (err && err !== 'route') return next(err);
      i++;
      runHandler(handlers[i]!, req, res, i === last ? next : step);
    };
    runHandler(handlers[0]!, req, res, step);
  };
}
