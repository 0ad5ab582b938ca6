import { Router, type RequestHandler } from 'express';
import type { Authenticator } from '../auth';
import type { Documents } from '../documents';
import type { Engine } from '../engine';
import type { FileEvents } from '../media';
import type { Registry } from '../schema';
import type { Ability } from '../auth/types';
import { authMiddleware } from './auth-middleware';
import { bodyParsers } from './body-parsers';
import type { EngineReadiness } from './engine-readiness';
import { contentRoutes } from './content-routes';
import { conditionalGet } from './conditional-get';
import { createCacheControl, type CacheControlOptions } from './cache-control';
import type { ResponseCache } from '../cache/response-cache';
import { responseCacheMiddleware } from './response-cache-middleware';
import type { CacheTagSettings } from '../cache/cache-tags';
import { cacheTagsMiddleware, noteRead } from './cache-tags-middleware';
import { createErrorHandler, notFound } from './error-handler';
import { createErrorReporter, type OnError } from './report-error';
import { healthRoute } from './health-route';
import { uploadRoutes, type UploadOptions } from './upload-routes';
import type { RestLimits } from '../query';
import { localesRoute } from './locales-route';
import { openapiRoute, type OpenApiOption } from './openapi-route';
import { modelRoute, type ModelRouteDeps } from './model-route';
import { documentActionRoutes } from './document-action-routes';
import type { OpenApiDocument } from '../openapi';
import { createRouteDefaults, type RoutesOptions } from './route-defaults';
import { prefixRoutes } from './prefix-routes';
import { routeTable } from './route-table';
import { composeMiddleware } from './compose-middleware';
import { sharedShapes } from './shared-shapes';
import type { SourceMapSettings } from '../format/encode-source-maps';

export interface HttpRouterDeps {
  registry: Registry;
  engine: Engine;
  auth: Authenticator;
  documents: (uid: string, ability: Ability) => Documents;
  rest: RestLimits;
  /** Per-route query parameters (the `routes` option), validated here at start-up. */
  routes?: RoutesOptions;
  /** Cache-Control of read answers (the `cacheControl` option), checked here at start-up. */
  cacheControl?: CacheControlOptions;
  /** The response cache (the `responseCache` option) in front of the content routes. */
  responseCache?: ResponseCache;
  /** The cache tags of read answers (the `cacheTags` option). */
  cacheTags?: CacheTagSettings;
  /** The engine start-up gate requests pass first. */
  readiness: EngineReadiness;
  upload: UploadOptions | false;
  bodyLimit: string | number;
  documentId?: () => string;
  /** Where the media library announces its writes as events (webhooks, `router.on`). */
  fileEvents?: FileEvents;
  /** Where unexpected errors go; default console.error (see report-error.ts). */
  onError?: OnError;
  /** Routes of plugins (users-permissions), added after the body parsers and before the content routes. */
  pluginRoutes?: (router: Router) => void;
  /** Content source maps for the requests that ask (the `preview` option); none: the header is ignored. */
  sourceMaps?: SourceMapSettings;
  /** Serve the OpenAPI document (the `openapi` option), built by `build` for a server URL. */
  openapi?: { option: OpenApiOption; build: (serverUrl: string) => OpenApiDocument };
  /** The model endpoint the admin reads (`GET /content-router/model`, model-route.ts). */
  model?: ModelRouteDeps;
  /** The CORS middleware (the `cors` option), first of all: a preflight is answered before anything else runs. */
  cors?: RequestHandler;
}

/**
 * The Express router: CORS (option) -> `/_health` -> readiness gate and authentication (one middleware) -> ETags and 304s -> CDN tags (option) -> `/upload` routes -> body parsers
 * -> plugin routes (`/auth/*`, `/users*`: users-permissions) -> `/i18n/locales` -> `/content-router/model` -> unpublish / discard-draft -> the OpenAPI document (option)
 * -> the response cache (option) -> content routes -> 404 -> the error envelope (unexpected errors reported to `onError` or console.error).
 * All but the last two run as ONE layer of this router (compose-middleware.ts): the routes mounted on a path (`/_health`,
 * `/upload`, the plugins') are entered only by the requests of their first path segment (prefix-routes.ts), and the
 * routes after the plugins' are dispatched by their first segment to their handlers (route-table.ts).
 */
export function createHttpRouter(deps: HttpRouterDeps): Router {
  const routeDefaults = createRouteDefaults(deps.routes, deps.registry, deps.rest);
  const cacheControl = createCacheControl(deps.cacheControl, deps.registry);
  const router = Router();
  const upload = deps.upload;
  const otherRoutes = (r: Router): void => {
    localesRoute(deps.registry, r);
    if (deps.model) modelRoute(r, deps.model);
    documentActionRoutes({ registry: deps.registry, documents: deps.documents, sourceMaps: deps.sourceMaps }, r);
    if (deps.openapi) openapiRoute(r, deps.openapi.option, deps.openapi.build);
  };
  const content = (r: Router): void => {
    contentRoutes({ registry: deps.registry, rest: deps.rest, documents: deps.documents, routeDefaults, sourceMaps: deps.sourceMaps, cacheControl, noteRead: deps.cacheTags && noteRead }, r);
  };
  router.use(
    composeMiddleware([
      sharedShapes, // the request and response share one hidden class again (shared-shapes.ts)
      ...(deps.cors ? [deps.cors] : []), // a preflight is answered before anything else runs
      healthRoute(router, deps.readiness, deps.engine), // no authentication, no waiting: a load balancer's probe
      authMiddleware(deps.auth, deps.readiness),
      conditionalGet, // ETag and 304 on every GET/HEAD answered below (conditional-get.ts)
      ...(deps.cacheTags ? [cacheTagsMiddleware(deps.registry, deps.cacheTags)] : []), // CDN tags (cache-tags-middleware.ts)
      ...(upload !== false
        ? [prefixRoutes((r) => r.use('/upload', uploadRoutes({ registry: deps.registry, engine: deps.engine, rest: deps.rest, documentId: deps.documentId, ...upload, events: deps.fileEvents, cacheControl })))]
        : []),
      bodyParsers(deps.bodyLimit),
      ...(deps.pluginRoutes ? [prefixRoutes(deps.pluginRoutes)] : []), // one look-up for the requests to other paths
      // The response cache runs after the other routes and before the content routes: two tables then.
      ...(deps.responseCache
        ? [routeTable(otherRoutes), responseCacheMiddleware(deps.responseCache), routeTable(content)]
        : [
            routeTable((r) => {
              otherRoutes(r);
              content(r);
            }),
          ]),
    ]),
  );
  router.use(notFound);
  router.use(createErrorHandler(createErrorReporter(deps.onError)));
  return router;
}
