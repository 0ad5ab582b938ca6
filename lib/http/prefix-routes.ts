import { Router, type RequestHandler } from 'express';
import { firstSegment, requestSegment } from './route-table';

/** A router's stack, as router 2 keeps it: route layers carry `route.path`, the others (`use`) their `rawPath`. */
interface Layer {
  route?: { path?: unknown };
  rawPath?: unknown;
}

/**
 * The routes `register` adds, in a router of their own that a request reaches only when the first segment of its
 * path is the first segment of one of them (`/auth/...`, `/users/...`): every other request skips them all with
 * one look-up, where it would otherwise be matched against each route in turn (the users-permissions plugin adds
 * about twenty routes before the content routes). The segment is compared as the router compares paths:
 * case-insensitively, on the path as sent (not percent-decoded). Mounted without a path, the router sees the
 * request as its parent does (`req.url`, `req.baseUrl`), so its routes answer exactly as they would in the parent.
 * A middleware mounted at a literal path (`r.use('/upload', uploads)`) counts as a route of its first segment; when
 * a registered layer has no literal first segment (a middleware for every path, `/:param`), every request goes
 * through it, as before.
 *
 * @example
 * router.use(prefixRoutes((r) => usersRoutes(deps, r)));
 */
export function prefixRoutes(register: (router: Router) => void): RequestHandler {
  const routes = Router();
  register(routes);
  const segments = new Set<string>();
  let every = false;
  for (const layer of routes.stack as Layer[]) {
    const segment = firstSegment(layer.route ? layer.route.path : layer.rawPath);
    if (segment === null) every = true;
    else segments.add(segment);
  }
  if (every) return routes;
  return (req, res, next) => {
    if (segments.has(requestSegment(req.path))) routes(req, res, next);
    else next();
  };
}
