import { tracingChannel } from 'node:diagnostics_channel';
import { METHODS } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { runHandler } from './compose-middleware';

/** A route layer of a router's stack, as router 2 (Express 5) keeps it, with its `Route` (`router.route(path)`). */
export interface RouteLayer {
  route?: {
    path?: unknown;
    /** The handlers, in the order added: `method` lower-case, none for `all`. */
    stack?: readonly { method?: unknown; handle?: unknown }[];
    methods?: Record<string, unknown>;
    _handlesMethod?: (method: string) => boolean;
  };
  match?: (path: string) => { params: Record<string, string> } | false;
  handleRequest?: (req: Request, res: Response, next: NextFunction) => void;
}

type Route = NonNullable<RouteLayer['route']>;

/** What a route does with a request method: nothing (passed over), its handlers for it, or Express's own dispatch. */
type Plan = { readonly skip: true } | { readonly handlers: readonly RequestHandler[] } | { readonly express: true };

const SKIP: Plan = { skip: true };
const EXPRESS: Plan = { express: true };

/**
 * The channel router 2.3 traces its handlers on (`express.router.request`). While something listens to it (an APM
 * agent), routes run through Express's own dispatch, so that each handler is traced as it would be.
 */
const tracing = tracingChannel('express.router.request');
const traced = (): boolean =>
  tracing.start.hasSubscribers || tracing.end.hasSubscribers || tracing.asyncStart.hasSubscribers || tracing.asyncEnd.hasSubscribers || tracing.error.hasSubscribers;

/** The methods whose plans are kept (Node's parser accepts only these; a host may set any other string). */
const KNOWN_METHODS = new Set(METHODS);

/**
 * What the router does with `method` for this route: passed over when the route does not serve it (but `HEAD`,
 * which tries `GET`'s handlers, as router 2's `next` and `Route#dispatch` do), else the handlers of the method and
 * of `all`, in the order added. A route with an error handler (four arguments) among them is left to Express.
 */
function planOf(route: Route, method: unknown): Plan {
  if (!route._handlesMethod!(method as string) && method !== 'HEAD') return SKIP;
  if (typeof method !== 'string') return EXPRESS;
  let name = method.toLowerCase();
  if (name === 'head' && !route.methods?.head) name = 'get';
  const handlers: RequestHandler[] = [];
  for (const layer of route.stack ?? []) {
    if (layer.method && layer.method !== name) continue;
    if (typeof layer.handle !== 'function' || layer.handle.length > 3) return EXPRESS;
    handlers.push(layer.handle as RequestHandler);
  }
  return { handlers };
}

/**
 * Runs a route's handlers as `Route#dispatch` runs them: `req.route` set, each handler in turn on `next()`,
 * `next('route')` leaving the route (`done()`), any other error or `'router'` ending it (`done(err)`); a handler that
 * throws, or whose promise rejects, is `next(err)` (compose-middleware.ts runs it as router 2's `Layer` does).
 */
function runRoute(route: Route, handlers: readonly RequestHandler[], req: Request, res: Response, done: (err?: unknown) => void): void {
  if (route.stack!.length === 0) return done();
  (req as { route?: unknown }).route = route;
  let i = 0;
  const next = (err?: unknown): void => {
    if (err) return err === 'route' ? done() : done(err);
    if (i === handlers.length) return done();
    runHandler(handlers[i++]!, req, res, next);
  };
  next();
}

/** Runs a route for a request whose path it matched, `req.params` set: `done` is called as the router's `next`. */
export type RouteRunner = (req: Request, res: Response, done: (err?: unknown) => void) => void;

/**
 * The dispatch of one route layer of `Router()`'s stack, as the router runs it once the layer's path has matched:
 * for a request method, null when the route does not serve it (the router passes it over), else what runs it, its
 * handlers in a row, without the per-request work of Express's route layer and `Route` (a closure and a method
 * look-up per handler, the tracing checks). Null when the layer is not a route of router 2.
 *
 * @example
 * const run = routeDispatch(router.stack[0])?.(req.method);
 * if (run) run(req, res, next); else next();
 */
export function routeDispatch(layer: RouteLayer): ((method: string) => RouteRunner | null) | null {
  const route = layer.route;
  const handleRequest = layer.handleRequest;
  if (!route || typeof handleRequest !== 'function' || typeof route._handlesMethod !== 'function' || !Array.isArray(route.stack)) return null;
  const viaExpress: RouteRunner = (req, res, done) => handleRequest.call(layer, req, res, done);
  const runnerOf = (plan: Plan): RouteRunner | null => {
    if ('skip' in plan) return null;
    if ('express' in plan) return viaExpress;
    const { handlers } = plan;
    return (req, res, done) => (traced() ? viaExpress(req, res, done) : runRoute(route, handlers, req, res, done));
  };
  const runners = new Map<string, RouteRunner | null>();
  return (method) => {
    let runner = runners.get(method);
    if (runner === undefined) {
      runner = runnerOf(planOf(route, method));
      if (KNOWN_METHODS.has(method)) runners.set(method, runner);
    }
    return runner;
  };
}
