import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { createContentRouter, healthCheck, memoryEngine, serveUploads, type ContentRouter, type Engine, type WebhooksOptions } from '../../lib';
import { cursorSecretFor, jwtSecretFor } from './jwt-secret';
import { loadBlogModel } from './model';
import { providersFromEnv } from './providers-from-env';
import { seedDemo } from './seed';
import { editorActions, mountAdmin } from './admin';

export interface BlogAppOptions {
  /** Load demo data into an empty store (default true); a store that holds data (a restart) is left as it is. */
  seed?: boolean;
  /** Folder for uploaded files (default: a fresh temporary folder). */
  uploadsDir?: string;
  /**
   * Storage engine (default: the memory engine persisted to `dataFile`, or in memory only on purpose without it).
   * The default never reads MONGODB_URI, so that a test cannot share a database by accident: `server.ts`
   * (`npm start`) passes a file-backed memory engine or `mongoEngine`, tests pass `testEngine()`.
   */
  engine?: Engine;
  /** Persist the memory engine to this file (its folder is created if needed). */
  dataFile?: string;
  /**
   * Strapi's draft rule (`auth.drafts: 'strapi'`): whoever may `find` a type reads its drafts. Default: true when
   * the environment has `STRAPI_COMPAT=1` (how the conformance corpus is replayed), else false: drafts take the
   * `findDrafts` grant (the API tokens have it, the Public role does not). Also Strapi's 400 to populate
   * pagination keys (`rest.populatePagination: false`).
   */
  strapiCompat?: boolean;
  /**
   * Return as soon as the app is built, before the engine has started, so that a server can listen meanwhile
   * (`npm start`: requests and `/_health` answer 503 until it serves); `started` settles with the start-up and
   * the demo data. Default false: wait for both.
   */
  listenFirst?: boolean;
  /**
   * A webhook receiving every event (docs/webhooks.md), with the header `X-Oracle: recorder` (as Strapi's recorded
   * calls have it). Default: `WEBHOOK_URL` from the environment; none without it.
   */
  webhookUrl?: string;
  /**
   * Strapi's session mode for end users (`jwtManagement: 'refresh'`: short access tokens, refresh tokens, logout,
   * `/auth/sessions`). Default: true when the environment has `USERS_SESSIONS=refresh`.
   */
  usersSessions?: boolean;
  /** Delivery settings of that webhook (tests: short timeouts). */
  webhookSettings?: Omit<WebhooksOptions, 'endpoints'>;
  /**
   * Where the JWT secret is kept when `JWT_SECRET` is not set (created on first start, mode 0600). Default:
   * `jwt-secret` next to `dataFile`; without either, a fresh secret for this process (logins end with it).
   */
  jwtSecretFile?: string;
  /**
   * The public URL of the API (`auth.users.url`: the link of the confirmation e-mails). Default: `PUBLIC_URL`
   * from the environment; none without it (confirmation e-mails are then refused).
   */
  publicUrl?: string;
  /** The folder of the built admin served at /admin (default the package's `dist/admin`; docs/admin.md). */
  adminDir?: string;
  /**
   * The response cache's byte budget (`responseCache.maxBytes`, docs/caching.md): 0 turns it off. Default: 64 MB
   * when the environment has `RESPONSE_CACHE=1`, else off.
   */
  responseCacheBytes?: number;
}

/**
 * The example app: Express with the blog model mounted at /api, the admin at /admin (an "Editor" role for it),
 * locales en (default) and fr, uploads served at /uploads, Strapi's health check at /_health, and a production-shaped `auth`: the Public role of the model's permissions.json (reads of articles,
 * categories and the two single types; nothing else, no writes) and its two API tokens (full-access for writes,
 * read-only). Content types are private by default: whatever is not granted answers 403, drafts included (they take
 * `findDrafts`, which only the tokens have) unless `STRAPI_COMPAT=1` asks for Strapi's rule.
 */
export async function createBlogApp(options: BlogAppOptions = {}): Promise<{ app: express.Express; router: ContentRouter; started: Promise<void>; close(): Promise<void> }> {
  const model = loadBlogModel();
  const uploadsDir = options.uploadsDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'content-router-uploads-'));
  const engine = options.engine ?? memoryEngine(options.dataFile ? { file: options.dataFile } : { ephemeral: true });
  const webhookUrl = options.webhookUrl ?? process.env.WEBHOOK_URL;
  const strapiCompat = options.strapiCompat ?? process.env.STRAPI_COMPAT === '1';
  const publicUrl = options.publicUrl ?? process.env.PUBLIC_URL;
  const cacheBytes = options.responseCacheBytes ?? (process.env.RESPONSE_CACHE === '1' ? 64 * 1024 * 1024 : 0);
  const jwtSecret = jwtSecretFor(process.env, options.jwtSecretFile ?? (options.dataFile ? path.join(path.dirname(options.dataFile), 'jwt-secret') : undefined));
  const router = createContentRouter({
    contentTypes: model.contentTypes,
    components: model.components,
    engine,
    i18n: { locales: model.permissions.locales.all, defaultLocale: model.permissions.locales.default },
    // STRAPI_COMPAT=1: populate[<rel>][start|limit|withCount] answer Strapi 5's 400, and pagination[cursor] is ignored
    // as Strapi 5 ignores it (docs/rest-api.md). Cursors are signed with CURSOR_SECRET, or a key derived from the JWT
    // secret, which is kept in the data folder: they survive a restart, and instances sharing it accept each other's.
    rest: { defaultLimit: 25, maxLimit: 100, ...(strapiCompat ? { populatePagination: false, cursorPagination: false } : {}), cursorSecret: cursorSecretFor(process.env, jwtSecret) },
    auth: {
      public: { actions: model.permissions.public.actions },
      apiTokens: model.permissions.apiTokens.map((t) => ({ name: t.name, type: t.type, accessKey: t.accessKey })),
      ...(strapiCompat ? { drafts: 'strapi' as const } : {}),
      // End users (register, log in, /users/me) with the Authenticated role's grants of permissions.json; the JWT
      // secret is JWT_SECRET, or one generated and kept in the data folder (never the model's fixture secret).
      users: {
        jwtSecret,
        jwt: model.permissions.usersPermissions.jwt,
        roles: {
          authenticated: { actions: authenticatedActions(model.permissions.authenticated.actions, strapiCompat) },
          // The admin's editors (docs/admin.md): everything but delete; `npm run admin:editor` creates one. Not in
          // Strapi compatibility mode: the recorded Strapi project has the two default roles only.
          ...(strapiCompat ? {} : { editor: { name: 'Editor', description: 'Edits and publishes the blog in the admin; cannot delete.', actions: editorActions() } }),
        },
        email: { send: logEmail },
        ...(publicUrl ? { url: publicUrl } : {}),
        ...((options.usersSessions ?? process.env.USERS_SESSIONS === 'refresh') ? { jwtManagement: 'refresh' as const } : {}),
        // Social login: only the providers whose client id and secret the environment holds (none by default).
        providers: providersFromEnv(process.env, publicUrl),
      },
    },
    upload: { directory: uploadsDir },
    // RESPONSE_CACHE=1: the response cache (docs/caching.md), 64 MB of answers.
    ...(cacheBytes > 0 ? { responseCache: { maxBytes: cacheBytes } } : {}),
    // CACHE_TAGS=xkey (or Surrogate-Key, Cache-Tag): CDN cache tags (docs/caching.md); VARNISH_URL: where to PURGE.
    ...(cacheTagHeader(process.env.CACHE_TAGS) ? { cacheTags: { header: cacheTagHeader(process.env.CACHE_TAGS)! } } : {}),
    ...(webhookUrl ? { webhooks: { ...options.webhookSettings, endpoints: [{ id: 'recorder', url: webhookUrl, headers: { 'X-Oracle': 'recorder' } }] } } : {}),
  });
  const varnish = process.env.VARNISH_URL;
  if (varnish && cacheTagHeader(process.env.CACHE_TAGS)) {
    router.on('cache.purge', ({ tags }) => fetch(varnish, { method: 'PURGE', headers: { 'xkey-purge': tags.join(' ') } }).then((res) => res.arrayBuffer()));
  }
  const app = express();
  app.disable('x-powered-by');
  app.all('/_health', healthCheck(router)); // Strapi's health check, at the root as in Strapi
  app.use('/uploads', serveUploads(uploadsDir));
  app.use('/api', router);
  mountAdmin(app, router, options.adminDir); // the built-in admin at /admin (docs/admin.md)
  const started = router.ready.then(async () => {
    if (options.seed !== false && (await isEmpty(router))) {
      await seedDemo(app, model.permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey);
    }
  });
  if (options.listenFirst) started.catch(() => undefined); // the caller handles it; never an unhandled rejection
  else await started;
  const close = async (): Promise<void> => {
    await router.webhooks.stop(); // the calls in flight end (each within its timeout) before the engine closes
    await engine.close();
  };
  return { app, router, started, close };
}

/** The `CACHE_TAGS` variable: a CDN's tag header, or nothing (anything else is refused, naming the choices). */
function cacheTagHeader(value: string | undefined): 'xkey' | 'Surrogate-Key' | 'Cache-Tag' | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'xkey' || value === 'Surrogate-Key' || value === 'Cache-Tag') return value;
  throw new Error(`CACHE_TAGS must be xkey, Surrogate-Key or Cache-Tag (got ${JSON.stringify(value)})`);
}

/**
 * The Authenticated role's grants: the model's, but `user.find` (every user's e-mail address, to anyone logged in)
 * only in Strapi compatibility mode, where the users corpus was recorded with it.
 */
function authenticatedActions(actions: readonly string[], strapiCompat: boolean): string[] {
  return strapiCompat ? [...actions] : actions.filter((action) => action !== 'plugin::users-permissions.user.find');
}

/**
 * The demo's e-mail sender (no mail server here): under `NODE_ENV=development` the e-mails, reset and
 * confirmation codes included, are written to the console; otherwise only that one was sent, to whom: a log
 * is no place for live reset codes.
 */
async function logEmail(email: { to: string; subject: string; text: string }): Promise<void> {
  if (process.env.NODE_ENV === 'development') console.info(`[email] to ${email.to}: ${email.subject}\n${email.text}`);
  else if (process.env.NODE_ENV !== 'test') console.info(`[email] to ${email.to}: ${email.subject} (not shown: start with NODE_ENV=development to see e-mails)`);
}

/**
 * True when no content type and no media holds a row (the users-permissions roles seeded at start-up aside): a
 * durable store is seeded once, not on every restart.
 */
async function isEmpty(router: ContentRouter): Promise<boolean> {
  const collections = [...router.registry.contentTypes.values()].filter((type) => !type.uid.startsWith('plugin::users-permissions.')).map((type) => type.collectionName);
  const counts = await Promise.all(collections.map((collection) => router.engine.count(collection, {})));
  return counts.every((n) => n === 0);
}
