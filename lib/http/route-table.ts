import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { routeDispatch, type RouteLayer, type RouteRunner } from './route-dispatch';

/**
 * The first segment of a route path (`/auth/local` -> `auth`), lower-cased; null when it is not literal ASCII.
 * Express compares paths case-insensitively (a RegExp with the `i` flag and no `u`: an ASCII letter matches only its
 * two cases), so an ASCII segment matches a request's exactly when their lower cases are equal.
 */
export function firstSegment(path: unknown): string | null {
  if (typeof path !== 'string') return null;
  const segment = /^\/([^/]*)/.exec(path)?.[1];
  return segment && /^[\x21-\x7e]+$/.test(segment) && !/[:*?(){}[\]\\+]/.test(segment) ? segment.toLowerCase() : null;
}

/** The first segment of a request's path (`/Articles/abc` -> `articles`), lower-cased as {@link firstSegment}. */
export function requestSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/** A route of the table: its layer (path matching, parameter decoding) and its dispatch (route-dispatch.ts). */
interface Route {
  match: (path: string) => { params: Record<string, string> } | false;
  runnerFor: (method: string) => RouteRunner | null;
  path: unknown;
}

/**
 * A route layer as the table uses it. Router 2.3 (Express 5.2 on) answers `layer.match(path)` with the match, its
 * `params` included; router 2.0 to 2.2 (Express 5.0 and 5.1, which the peer range allows) answer `true` and leave
 * them in `layer.params`: both give the table the match.
 */
function routeOf(layer: RouteLayer): Route | null {
  const runnerFor = routeDispatch(layer);
  const match = layer.match;
  if (!runnerFor || typeof match !== 'function') return null;
  const matchOf = (path: string): { params: Record<string, string> } | false => {
    const found = match.call(layer, path) as { params: Record<string, string> } | boolean;
    return found === true ? { params: (layer as { params?: Record<string, string> }).params ?? {} } : found;
  };
  return { match: matchOf, runnerFor, path: layer.route!.path };
}

/**
 * The routes `register` adds (`router.route(path).get(...)`), dispatched as one middleware: a request is matched
 * only against the routes whose literal first segment is its own (`/articles` and `/articles/:documentId` for
 * `GET /articles`), where a router tests each route's path in turn, about twenty for the blog model before its
 * content routes. Each candidate is matched by its Express layer (the router's own path matching and parameter
 * decoding), and its handlers run as Express's `Route` runs them (route-dispatch.ts: method dispatch, `HEAD` served
 * by `GET`), in the order they were added: the answers are the router's, case-insensitive paths, an optional
 * trailing slash, a 400 for a parameter that does not decode, `req.params` and `req.route` included. A route that calls `next()` passes the request to the next candidate, then
 * to what follows the table. A route whose first segment is not literal (`/:param`) is a candidate for every
 * request; when `register` adds a middleware, or the layers are not router 2's, the plain router is returned.
 *
 * @example
 * router.use(routeTable((r) => contentRoutes(deps, r)));
 */
export function routeTable(register: (router: Router) => void): RequestHandler {
  const routes = Router();
  register(routes);
  const found = (routes.stack as RouteLayer[]).map(routeOf);
  if (!found.every((route) => route !== null)) return routes;
  const layers: Route[] = found;
  const segments = layers.map((layer) => firstSegment(layer.path));
  /** The candidates of a request whose first segment no route names: the routes without a literal one. */
  const anySegment = layers.filter((_, i) => segments[i] === null);
  const bySegment = new Map<string, Route[]>();
  for (const segment of new Set(segments)) {
    if (segment !== null) bySegment.set(segment, layers.filter((_, i) => segments[i] === segment || segments[i] === null));
  }

  const dispatch = (candidates: readonly Route[], from: number, path: string, req: Request, res: Response, next: NextFunction): void => {
    for (let i = from; i < candidates.length; i++) {
      const layer = candidates[i]!;
      let match: ReturnType<Route['match']>;
      try {
        match = layer.match(path);
      } catch (err) {
        return next(err); // a parameter that does not decode: the router's 400 (no route matches with an error)
      }
      // A route that does not serve the method is passed over, as the router does (HEAD tries GET's).
      if (!match) continue;
      const run = layer.runnerFor(req.method);
      if (!run) continue;
      req.params = match.params;
      run(req, res, (err?: unknown) => {
        if (err && err !== 'route') return next(err);
        dispatch(candidates, i + 1, path, req, res, next);
      });
      return;
    }
    next();
  };

  return function routeTableDispatch(req, res, next) {
    const path = req.path; // parsed once per URL by Express (parseurl), as its own matching reads it
    const candidates = bySegment.get(requestSegment(path)) ?? anySegment;
    if (candidates.length === 0) return next();
    dispatch(candidates, 0, path, req, res, next);
  };
}
