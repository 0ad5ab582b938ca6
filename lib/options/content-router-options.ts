import type { AuthOptions } from '../auth';
import type { LifecycleHooks } from '../documents';
import type { Engine } from '../engine';
import type { ComponentSchema, ContentTypeSchema, CustomFieldsOption, I18nOptions } from '../schema';
import type { Logger } from '../errors/logger';
import type { OnError } from '../http/report-error';
import type { RoutesOptions } from '../http/route-defaults';
import type { CacheControlOptions } from '../http/cache-control';
import type { ResponseCacheOptions } from '../cache/response-cache';
import type { CacheTagsOptions } from '../cache/cache-tags';
import type { UploadOptions } from '../http/upload-routes';
import type { OpenApiOption } from '../http/openapi-route';
import type { CorsOptions } from '../http/cors';
import type { WebhooksOptions } from '../webhooks';
import type { PreviewOptions } from './preview-option';

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
