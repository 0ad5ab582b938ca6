import type { Router } from 'express';
import { createAuth } from './auth';
import { createDocumentService, documentServices, type DocumentService } from './documents';
import { memoryEngine, type Engine } from './engine';
import { indexesFor } from './engine/indexes';
import { createRegistry, type Registry } from './schema';
import type { DocumentInputOf, DocumentOf, DocumentUid } from './index';
import { createHttpRouter } from './http/create-http-router';
import { createLogger } from './errors/logger';
import type { CachePurgeListener } from './cache/purge-tracker';
import { createCaches } from './cache/create-caches';
import { createCorsMiddleware } from './http/cors';
import { createOpenApiDocument, type OpenApiDocument, type OpenApiDocumentOptions } from './openapi';
import { checkLifecycles } from './options/check-lifecycles';
import type { ContentRouterOptions } from './options/content-router-options';
import { resolveRestLimits } from './options/resolve-rest-limits';
import { validateRouterOptions } from './options/validate-options';
import { ADMINS, type AdminSet } from './http/admin-links';
import { sourceMapSettings } from './options/preview-option';
import { checkActions } from './auth/check-actions';
import { createUsersPermissions } from './users-permissions';
import { createWebhooks, type EventListener, type WebhookEventName, type WebhooksApi } from './webhooks';
import { createCallerDescriber, displayNamesOf } from './http/model-caller';
import { createRouterEvents } from './router-events';
import { createRouterStartUp } from './router-start-up';

export type { ContentRouterOptions } from './options/content-router-options';

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
  const { responseCache, cacheTags, engine } = createCaches(options, registry, logger, options.engine ?? memoryEngine());
  const rest = resolveRestLimits(options.rest);
  const webhooks = createWebhooks(options.webhooks, { registry, engine, logger, ready: () => readiness.ready });
  const service = createDocumentService({
    registry, engine: webhooks.engine, rest, documentId: options.documentId, lifecycles: options.lifecycles, events: webhooks.documents,
  });
  const users = plugin?.start({ registry, engine, rest, documentId: options.documentId, logger });
  const auth = createAuth(options.auth, registry, users ? { users } : {});
  for (const [type, role] of Object.entries(plugin?.options.roles ?? {})) checkActions(role.actions ?? [], `auth.users.roles.${type}.actions`, registry);
  const publicActions = options.auth?.public !== undefined && options.auth.public !== 'all' ? options.auth.public.actions : [];
  const collections = [...indexesFor(registry), ...(plugin?.collections ?? []), ...webhooks.collections];
  // The engine starts once every option is checked (constructed(), below): a router whose construction throws
  // (a bad `routes` entry is found by createHttpRouter) must not have opened a MongoDB connection or a data file's lock.
  const { readiness, constructed } = createRouterStartUp({
    registry, engine, collections, logger, auth: options.auth, publicActions, users, webhooks, readyWaitMS: options.readyWaitMS,
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
  const events = createRouterEvents(webhooks, cacheTags);
  Object.defineProperties(router, {
    registry: { value: registry },
    engine: { value: engine },
    ready: { value: readiness.ready },
    documents: { value: documentServices(registry, rest, (uid) => service(uid)) },
    openapi: { value: openapi },
    webhooks: { value: webhooks.api },
    responseCache: { value: responseCache },
    on: { value: events.on },
    off: { value: events.off },
    [ADMINS]: { value: admins },
  });
  constructed();
  return router;
}
