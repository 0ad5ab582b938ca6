import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { createContentRouter, hashAccessKey, type AuthOptions, type ContentRouter, type ContentRouterOptions } from '../../../lib';
import { loadBlogModel } from '../../../examples/blog/model';
import { seedDemo } from '../../../examples/blog/seed';
import { testEngine } from '../../helpers/test-engine';

export const FULL_KEY = 'oracle-full-access-token-7f3a9c1e5b2d4f6a8c0e1b3d5f7a9c2e';
export const READ_KEY = 'oracle-read-only-token-4b6d8f0a2c4e6a8b0d2f4a6c8e0b2d4f';
export const CUSTOM_KEY = 'custom-token-0123456789abcdef';
export const EXPIRED_KEY = 'expired-token-0123456789abcdef';
export const HASHED_KEY = 'hash-only-token-0123456789abcdef';
export const SALT = 'test-api-token-salt';

/** The permissions of the `custom` token: a few actions spread over types and the upload plugin. */
export const CUSTOM_PERMISSIONS = [
  'api::article.article.find',
  'api::author.author.findOne',
  'api::author.author.create',
  'api::category.category.update',
  'api::category.category.delete',
  'api::global.global.update',
  'api::about.about.find',
  'plugin::upload.content-api.find',
  'plugin::upload.content-api.upload',
];

/** The permissions of the hash-only token (configured with `salt` + `hash`, no plain value anywhere). */
export const HASHED_PERMISSIONS = ['api::category.category.find', 'api::category.category.create', 'plugin::upload.content-api.destroy'];

/** The blog app's auth, plus a custom, an expired and a hash-only token. */
export function blogAuthOptions(extra: Partial<AuthOptions> = {}): AuthOptions {
  const model = loadBlogModel();
  return {
    salt: SALT,
    public: { actions: model.permissions.public.actions },
    apiTokens: [
      { name: 'full', type: 'full-access', accessKey: FULL_KEY },
      { name: 'read', type: 'read-only', accessKey: READ_KEY },
      { name: 'custom', type: 'custom', accessKey: CUSTOM_KEY, permissions: CUSTOM_PERMISSIONS },
      { name: 'expired', type: 'full-access', accessKey: EXPIRED_KEY, expiresAt: '2020-01-01T00:00:00.000Z' },
      { name: 'hashed', type: 'custom', hash: hashAccessKey(HASHED_KEY, SALT), permissions: HASHED_PERMISSIONS },
    ],
    ...extra,
  };
}

export interface BlogAuthApp {
  app: express.Express;
  router: ContentRouter;
  close(): Promise<void>;
}

/**
 * The blog model mounted at /api with `auth` (default `blogAuthOptions()`) on a fresh memory engine, seeded with
 * the example app's demo data through the REST API (so the full-access token must be configured). `extra` options
 * are passed to createContentRouter.
 */
export async function createBlogAuthApp(auth: AuthOptions = blogAuthOptions(), seed = true, extra: Partial<ContentRouterOptions> = {}): Promise<BlogAuthApp> {
  const model = loadBlogModel();
  const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-http-'));
  const engine = testEngine();
  const router = createContentRouter({
    contentTypes: model.contentTypes,
    components: model.components,
    engine,
    i18n: { locales: model.permissions.locales.all, defaultLocale: model.permissions.locales.default },
    auth,
    upload: { directory: uploadsDir },
    ...extra,
  });
  const app = express();
  app.use('/api', router);
  await router.ready;
  if (seed) await seedDemo(app, FULL_KEY);
  return {
    app,
    router,
    close: async () => {
      await engine.close();
      fs.rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}
