import type { RequestHandler, Router } from 'express';
import type { Engine } from '../engine';
import { ServiceUnavailableError } from '../errors';
import { formatError } from '../format';
import type { EngineReadiness } from './engine-readiness';
import { prefixRoutes } from './prefix-routes';

/** The reason of a 503 once the engine has started but cannot serve now (MongoDB without a primary). */
export const UNAVAILABLE = 'the storage engine is unavailable (the cause is in the server log)';

/** The handler of each router, for `healthCheck(router)`. */
const handlers = new WeakMap<object, RequestHandler>();

/**
 * The health check of one router: Strapi's `GET /_health` (204 with the header `strapi: You are so French!`,
 * for any method, as `router.all('/_health', healthCheck)` in Strapi 5's `services/server/index.ts`), reporting
 * the engine's readiness. While the first start-up runs, after a failed one (a new attempt is started when one
 * is due, as a request would) and while a started engine cannot serve (`engine.healthy()` false): a 503
 * ServiceUnavailableError envelope with `Retry-After`, its reason a fixed sentence. No authentication, nothing read
 * from the request, no cause, host or version in the answer, never cached. It never waits: a load balancer's probe
 * gets the state as it is.
 *
 * @example
 * router.all('/_health', createHealthHandler(readiness, engine));
 */
export function createHealthHandler(readiness: EngineReadiness, engine: Engine): RequestHandler {
  return (_req, res) => {
    res.set('Cache-Control', 'no-store');
    const down = readiness.check() ?? (engine.healthy?.() === false ? unavailable() : null);
    if (!down) {
      res.set('strapi', 'You are so French!').status(204).end();
      return;
    }
    const { status, body } = formatError(down);
    res.set('Retry-After', String(readiness.retryAfterSeconds)).status(status).json(body);
  };
}

/**
 * The health check at `/_health` of the content router (`GET /api/_health` when it is mounted at `/api`), as a
 * middleware for the front of its chain, before authentication and the start-up gate: only a request whose first
 * path segment is `_health` enters its route (prefix-routes.ts). The handler is kept for `healthCheck(router)`.
 *
 * @example
 * router.use(healthRoute(router, readiness, engine));
 */
export function healthRoute(router: Router, readiness: EngineReadiness, engine: Engine): RequestHandler {
  const handler = createHealthHandler(readiness, engine);
  handlers.set(router, handler);
  return prefixRoutes((r) => r.all('/_health', handler));
}

/**
 * Strapi's health check for the app's root, reporting this router's engine: 204 (and `strapi: You are so
 * French!`) once it serves, 503 with `Retry-After` while it starts, after a failed start-up and while it cannot
 * serve. The same answer as `GET /api/_health`. No authentication; it says nothing but ready or not.
 *
 * @example
 * const router = createContentRouter({ contentTypes, engine });
 * app.use('/api', router);
 * app.all('/_health', healthCheck(router)); // what Strapi answers at /_health, for load balancers
 */
export function healthCheck(router: Router): RequestHandler {
  const handler = handlers.get(router);
  if (!handler) throw new TypeError('healthCheck(router): pass the router that createContentRouter returned');
  return handler;
}

function unavailable(): ServiceUnavailableError {
  return new ServiceUnavailableError(undefined, { reason: UNAVAILABLE });
}
