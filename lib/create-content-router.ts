import type { Router } from 'express';
import { randomBytes } from 'node:crypto';
import { createAuth, type AuthOptions } from './auth';
import { createDocumentService, documentServices, type DocumentService, type LifecycleHooks } from './documents';
import { memoryEngine, type Engine } from './engine';
import { indexesFor } from './engine/indexes';
import { createRegistry, type ComponentSchema, type ContentTypeSchema, type CustomFieldsOption, type I18nOptions, type Registry } from './schema';
import type { DocumentInputOf, DocumentOf, DocumentUid } from './index';
import { createHttpRouter } from './http/create-http-router';
import { createEngineReadiness } from './http/engine-readiness';
import { createLogger, type Logger } from './errors/logger';
import { describeStartUp } from './start-up-summary';
import type { OnError } from './http/report-error';
import type { RoutesOptions } from './http/route-defaults';
import type { CacheControlOptions } from './http/cache-control';
import { ResponseCache, type ResponseCacheOptions } from './cache/response-cache';
import type { CacheTagsOptions } from './cache/cache-tags';
import { createCacheTags } from './cache/create-cache-tags';
import type { CachePurgeListener } from './cache/purge-tracker';
import type { UploadOptions } from './http/upload-routes';
import type { OpenApiOption } from './http/openapi-route';
import { createCorsMiddleware, type CorsOptions } from './http/cors';
import { createOpenApiDocument, type OpenApiDocument, type OpenApiDocumentOptions } from './openapi';
import { checkLifecycles } from './options/check-lifecycles';
import { validateRouterOptions } from './options/validate-options';
import { ADMINS, type AdminSet } from './http/admin-links';
import { sourceMapSettings, type PreviewOptions } from './options/preview-option';
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_JOINED_ROWS } from './query/depth-limit';
import { checkActions } from './auth/check-actions';
import { createUsersPermissions } from './users-permissions';
import { createWebhooks, type EventListener, type WebhookEventName, type WebhooksApi, type WebhooksOptions } from './webhooks';
import { unfinishedImportWarning } from './transfer/import/import-marker';
import { createCallerDescriber, displayNamesOf } from './http/model-caller';

/** Options of `createContentRouter`; see docs/options.md. */
export interface ContentRouterOptions {
  /** Strapi `schema.json` objects of the content types. */
  contentTypes: readonly ContentTypeSchema[];
  /** Strapi component definitions keyed by uid (`'shared.seo'`). */
  components?: Readonly<Record<string, ComponentSchema>>;
  /**
   * What each custom field of the schema files stores, keyed by its uid, as its Strapi plugin registers it with
   * `strapi.customFields.register({ name, plugin, type })`. A schema naming an unregistered custom field is refused
   * at start-up (`CR_UNKNOWN_CUSTOM_FIELD`).
   *
   * @example
   * customFields: { 'plugin::color-picker.color': { type: 'string' } }
   */
  customFields?: CustomFieldsOption;
  /** Storage engine; default `memoryEngine()` (in memory only: a `CR_MEMORY_ONLY` warning at startup). */
  engine?: Engine;
  /**
   * REST limits: `defaultLimit` 25 and `maxLimit` 100 (page sizes), `maxDepth` 10 (how many relations and
   * components a populate tree or a sort path may go through; deeper is a 400), `maxJoinedRows` 10000 (the
   * most rows the populates of one read may join, all levels together; more is a 400 naming the populate path),
   * `populatePagination` true (`populate[<rel>][start|limit|withCount]` per parent row; false answers Strapi 5's
   * `400 Invalid key` to them, docs/rest-api.md),
   * `cursorPagination` true (`pagination[cursor]` pages by cursor; false ignores it, as Strapi 5 does) and
   * `cursorSecret` (the key cursors are signed with, at least 16 characters; default: random per router, so
   * cursors do not survive a restart nor work across instances: give the same secret to each. docs/rest-api.md).
   */
  rest?: { defaultLimit?: number; maxLimit?: number; maxDepth?: number; maxJoinedRows?: number; populatePagination?: boolean; cursorPagination?: boolean; cursorSecret?: string };
  /** Configured locales (codes, or `{ code, name }` with a display name); default `{ locales: ['en'], defaultLocale: 'en' }`. */
  i18n?: I18nOptions;
  /**
   * API tokens, the Public role and the host app's own authentication. Without it nothing is allowed (content types
   * are private by default). `{ public: 'all' }` opens every route to every caller, with a `CR_AUTH_OPEN` warning
   * at start-up: local development only.
   */
  auth?: AuthOptions;
  /** The media library (`/upload` routes); `false` disables it. */
  upload?: UploadOptions | false;
  /** Maximum JSON/urlencoded body size; default '1mb'. */
  bodyLimit?: string | number;
  /** documentId generator; default UUIDv7. */
  documentId?: () => string;
  /** Lifecycle hooks per content type uid. */
  lifecycles?: LifecycleHooks;
  /**
   * Query parameters per content type and core route action (`find`, `findOne`, `create`, `update`, `delete`):
   * `query` sets parameters (the request's own value of that key is ignored), `defaultQuery` fills in those the
   * request does not give. Checked at start-up (`CR_INVALID_ROUTES`).
   *
   * @example
   * routes: { 'api::page.page': { find: { query: { populate: { seo: { populate: { metaImage: true } } } } } } }
   */
  routes?: RoutesOptions;
  /**
   * Cache-Control of read answers (docs/caching.md): `public` (with `maxAge`, `sMaxAge`, `staleWhileRevalidate`,
   * `staleIfError` seconds) for what anonymous callers read, per content type and route; `private` for callers
   * (always); `no-store` for drafts (`drafts`). Default: no header on anonymous answers. Checked at start-up.
   *
   * @example
   * cacheControl: { public: { maxAge: 60, sMaxAge: 300 }, contentTypes: { 'api::article.article': { findOne: { maxAge: 600 } } } }
   */
  cacheControl?: CacheControlOptions;
  /**
   * The response cache (docs/caching.md): answers of the content routes to the Public role and API tokens kept in
   * memory within `maxBytes` (least recently used dropped first), each dropped by any write to a collection it read.
   * Default off. One instance only: writes made by another instance or process are not seen.
   */
  responseCache?: ResponseCacheOptions | false;
  /**
   * Cache tags for a CDN (docs/caching.md, "CDN tags and purges"): read answers carry their type's and documents'
   * tags in `header` (`xkey` for Varnish, `Surrogate-Key` for Fastly, `Cache-Tag` for Cloudflare), and every
   * committed write emits the tags to purge (`router.on('cache.purge', ({ tags }) => ...)`, and a POST of
   * `{ tags }` to `purgeUrl` when given). Default off.
   *
   * @example
   * cacheTags: { header: 'Surrogate-Key', maxDocuments: 64 }
   */
  cacheTags?: CacheTagsOptions | false;
  /**
   * Where unexpected errors (answered 500) go, with the request's context; default: `console.error` of the
   * request line and the stack, as Express logs them (nothing when the app's `env` is `test`). The client's
   * answer is the same either way: a bare 500 envelope. A throwing or rejecting hook is logged, never fatal.
   */
  onError?: OnError;
  /**
   * How long (ms) a request waits for the engine's first start-up before it answers 503 "still starting";
   * default 5000. `0` answers at once.
   */
  readyWaitMS?: number;
  /**
   * Serve the OpenAPI 3.1 document of this API (docs/openapi.md): `true` at `/openapi.json` under the mount point,
   * or `{ path, public, serverUrl, title, version }`. Default off (`router.openapi()` gives it either way). Served to
   * API-token callers only unless `public: true`.
   */
  openapi?: boolean | OpenApiOption;
  /**
   * Where start-up and the engine report (docs/options.md): the start-up line (`info`), a database that cannot be
   * reached, a start-up failure and its recovery (`error` / `warn`). Default `console`, its `info` skipped when
   * `NODE_ENV` is `test`; a pino, winston or bunyan logger fits; `false` logs nothing. 500s go to `onError`.
   */
  logger?: Logger | false;
  /**
   * Strapi's webhooks (docs/webhooks.md): `endpoints` written to storage at start-up (`{ id, url, headers, events,
   * enabled, secret }`), more added at run time with `router.webhooks`, and how deliveries run (`timeoutMS` 10 s,
   * `maxAttempts` 12 with exponential backoff from `backoffMS` 2 s, `concurrency` 5). Each event is stored in the
   * transaction of its write and delivered after it, at least once, by one instance. Give it (`webhooks: {}` at
   * least) on every instance that should deliver.
   *
   * @example
   * webhooks: { endpoints: [{ id: 'frontend', url: 'https://example.com/api/revalidate', events: ['entry.publish', 'entry.unpublish'] }] }
   */
  webhooks?: WebhooksOptions;
  /**
   * Answer cross-origin requests as Strapi's `strapi::cors` does (docs/options.md): `true` for Strapi's defaults
   * (every origin, credentials, a year's preflight cache), or its config shape `{ origin, methods, headers, expose,
   * maxAge, credentials, keepHeadersOnError }`, each key defaulting as Strapi's. Default off: no CORS headers.
   *
   * @example
   * cors: { origin: ['https://www.example.com'] }
   */
  cors?: boolean | CorsOptions;
  /**
   * Strapi 5's content source maps (docs/preview.md): a request with `strapi-encode-source-maps: true` gets its
   * string fields stega-encoded, pointing back to each field (Strapi's `strapiSource`) and to its edit page
   * (`editUrl`, default the built-in admin's when the app mounts `createAdmin(router)`, else the example admin's).
   * `false` ignores the header.
   *
   * @example
   * preview: { editUrl: 'https://admin.example.com/#/{pluralName}/{documentId}' }
   */
  preview?: PreviewOptions | false;
}

/** The returned Express router, with the document service and the engine for the host app. */
export interface ContentRouter extends Router {
  readonly registry: Registry;
  readonly engine: Engine;
  /** The response cache's counters when the `responseCache` option is on: `hits`, `count` (entries), `size` (bytes). */
  readonly responseCache?: { readonly hits: number; readonly count: number; readonly size: number };
  /**
   * Settles with the engine's first start-up (connection, collections, indexes), after the start-up warnings
   * have been emitted; requests wait for it up to `readyWaitMS` (then 503). When it resolves, the start-up line
   * has been logged (`logger.info`). When it rejects, the error has been logged (`logger.error`), requests and
   * `/_health` answer 503 at once, and start-up is retried in the background on a request at least 5 s after the
   * last attempt (docs/errors.md).
   */
  readonly ready: Promise<void>;
  /**
   * Strapi 5's Document Service for one content type (with every permission): `findMany({ filters, populate, ... })`,
   * `findOne({ documentId })`, `create({ data, status })`, ... and the REST query-string forms (docs/documents.md).
   * An unknown uid throws an Error naming the content types. With generated types in scope (docs/types.md) the
   * documents and parameters are typed: `documents('api::article.article')` answers `Article`s, takes only known
   * uids, and checks `data`, `filters`, `fields`, `populate` and `sort`.
   */
  documents<U extends DocumentUid>(uid: U): DocumentService<DocumentOf<U>, DocumentInputOf<U>>;
  /**
   * The OpenAPI 3.1 document of this router's routes (docs/openapi.md): paths, query parameters, request bodies,
   * answers with each type's document schema, the error envelope, API tokens as bearer authentication.
   */
  openapi(options?: OpenApiDocumentOptions): OpenApiDocument;
  /** The webhooks and their deliveries (docs/webhooks.md): `list`, `create`, `update`, `remove`, `deliveries`, `retry`, `stop`. */
  readonly webhooks: WebhooksApi;
  /**
   * Listens to Strapi's events in process (like `strapi.eventHub.on`): `fn` gets the payload a webhook gets
   * (`{ event, createdAt, model, uid, entry }` or `{ event, createdAt, media }`) after the write commits; `'*'` for
   * every event. Returns the function that stops listening.
   *
   * @example
   * router.on('entry.publish', ({ uid, entry }) => revalidate(uid, entry.documentId));
   */
  on(event: WebhookEventName | '*', listener: EventListener): () => void;
  /**
   * With the `cacheTags` option: `fn` gets `{ event: 'cache.purge', tags }` when a write that may change cached
   * answers commits, before the write's answer is sent (docs/caching.md). Not part of `'*'`.
   *
   * @example
   * router.on('cache.purge', ({ tags }) => fetch('http://127.0.0.1:6081/', { method: 'PURGE', headers: { 'xkey-purge': tags.join(' ') } }));
   */
  on(event: 'cache.purge', listener: CachePurgeListener): () => void;
  /** Stops a listener of {@link ContentRouter.on}. */
  off(event: WebhookEventName | '*', listener: EventListener): void;
  off(event: 'cache.purge', listener: CachePurgeListener): void;
}

/**
 * Builds the Strapi-v5-compatible REST Content API router. Mount it at `/api`. Content types are private by
 * default: `auth` says what the public and each API token may do.
 *
 * @example
 * app.use('/api', createContentRouter({
 *   contentTypes: [articleSchema],
 *   engine: memoryEngine({ file: './data/content.db' }),
 *   auth: { public: { actions: ['api::article.article.find'] }, apiTokens: [{ name: 'ci', type: 'full-access', accessKey: process.env.CMS_TOKEN! }] },
 * }));
 */
export function createContentRouter(options: ContentRouterOptions): ContentRouter {
  validateRouterOptions(options);
  const plugin = options.auth?.users !== undefined ? createUsersPermissions(options.auth.users) : undefined;
  const contentTypes = plugin ? [...options.contentTypes, ...plugin.contentTypes] : options.contentTypes;
  const registry = createRegistry({ contentTypes, components: options.components, i18n: options.i18n, customFields: options.customFields });
  checkLifecycles(options.lifecycles, registry);
  const logger = createLogger(options.logger);
  const responseCache = options.responseCache ? new ResponseCache(options.responseCache) : undefined;
  const cacheTags = options.cacheTags ? createCacheTags(options.cacheTags, registry, logger) : undefined;
  const cached = responseCache ? responseCache.track(options.engine ?? memoryEngine()) : (options.engine ?? memoryEngine());
  const engine = cacheTags ? cacheTags.track(cached) : cached;
  const rest = {
    defaultLimit: options.rest?.defaultLimit ?? 25,
    maxLimit: options.rest?.maxLimit ?? 100,
    maxDepth: options.rest?.maxDepth ?? DEFAULT_MAX_DEPTH,
    maxJoinedRows: options.rest?.maxJoinedRows ?? DEFAULT_MAX_JOINED_ROWS,
    populatePagination: options.rest?.populatePagination ?? true,
    cursorPagination: options.rest?.cursorPagination ?? true,
    cursorSecret: options.rest?.cursorSecret ?? randomBytes(32),
  };
  const webhooks = createWebhooks(options.webhooks, { registry, engine, logger, ready: () => readiness.ready });
  const service = createDocumentService({
    registry, engine: webhooks.engine, rest, documentId: options.documentId, lifecycles: options.lifecycles, events: webhooks.documents,
  });
  const users = plugin?.start({ registry, engine, rest, documentId: options.documentId, logger });
  const auth = createAuth(options.auth, registry, users ? { users } : {});
  for (const [type, role] of Object.entries(plugin?.options.roles ?? {})) checkActions(role.actions ?? [], `auth.users.roles.${type}.actions`, registry);
  const publicActions = options.auth?.public !== undefined && options.auth.public !== 'all' ? options.auth.public.actions : [];
  const collections = [...indexesFor(registry), ...(plugin?.collections ?? []), ...webhooks.collections];
  // The engine starts once every option is checked: a router whose construction throws (a bad `routes` entry is
  // found by createHttpRouter below) must not have opened a MongoDB connection or a data file's lock.
  let constructed!: () => void;
  const checked = new Promise<void>((resolve) => (constructed = resolve));
  const start = async (): Promise<void> => {
    await checked;
    await engine.init(collections, { logger });
    // Best effort: a start-up is not refused for want of this warning (the database may answer later).
    const unfinished = await unfinishedImportWarning(engine).catch(() => undefined);
    if (unfinished) logger.warn(unfinished);
    await users?.seed(publicActions);
    await webhooks.start();
  };
  const readiness = createEngineReadiness(start, {
    waitMS: options.readyWaitMS,
    logger,
    onStarted: () => logger.info(describeStartUp(registry, engine, options.auth)),
  });

  const limits = { maxLimit: rest.maxLimit, upload: options.upload !== false };
  const openapi = (o: OpenApiDocumentOptions = {}): OpenApiDocument => createOpenApiDocument(registry, limits, o);
  const served = options.openapi === true ? {} : options.openapi || undefined;
  const admins: AdminSet = new Set(); // createAdmin(router) adds its own (the default preview link goes there)
  const router = createHttpRouter({
    registry,
    engine: webhooks.engine,
    auth,
    documents: service,
    rest,
    routes: options.routes,
    cacheControl: options.cacheControl,
    responseCache,
    cacheTags: cacheTags?.settings,
    readiness,
    upload: options.upload ?? {},
    bodyLimit: options.bodyLimit ?? '1mb',
    documentId: options.documentId,
    fileEvents: webhooks.files,
    onError: options.onError,
    sourceMaps: sourceMapSettings(options.preview, admins),
    ...(users ? { pluginRoutes: users.routes } : {}),
    openapi: served && { option: served, build: (serverUrl) => openapi({ ...served, serverUrl }) },
    cors: options.cors ? createCorsMiddleware(options.cors) : undefined,
    model: { registry, displayNames: displayNamesOf(options), upload: options.upload !== false, describeCaller: createCallerDescriber(auth, users) },
  }) as ContentRouter;
  Object.defineProperties(router, {
    registry: { value: registry },
    engine: { value: engine },
    ready: { value: readiness.ready },
    documents: { value: documentServices(registry, rest, (uid) => service(uid)) },
    openapi: { value: openapi },
    webhooks: { value: webhooks.api },
    responseCache: { value: responseCache },
    on: { value: (event: string, listener: never) => (event === CACHE_PURGE ? purgeListeners().on(listener) : webhooks.on(event as WebhookEventName, listener)) },
    off: { value: (event: string, listener: never) => (event === CACHE_PURGE ? purgeListeners().off(listener) : webhooks.off(event as WebhookEventName, listener)) },
    [ADMINS]: { value: admins },
  });
  function purgeListeners() {
    if (!cacheTags) throw new Error("content-router: 'cache.purge' events need the cacheTags option (docs/caching.md)");
    return cacheTags;
  }
  constructed();
  return router;
}

/** The event of `router.on` that the `cacheTags` option emits (not one of Strapi's: no webhook subscribes to it). */
const CACHE_PURGE = 'cache.purge';
