import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { createContentRouter, memoryEngine, serveUploads, type ContentRouter, type Engine } from '../../lib';
import { loadBlogModel } from './model';
import { seedDemo } from './seed';

export interface BlogAppOptions {
  /** Load demo data (default true). */
  seed?: boolean;
  /** Folder for uploaded files (default: a fresh temporary folder). */
  uploadsDir?: string;
  /**
   * Storage engine (default: the memory engine, persisted to `dataFile` when given). The default never reads
   * MONGODB_URI, so that a test cannot share a database by accident: `server.ts` (`npm start`) passes
   * `mongoEngine` when MONGODB_URI is set, tests pass `testEngine()`.
   */
  engine?: Engine;
  /** Persist the memory engine to this file. */
  dataFile?: string;
}

/**
 * The example app: Express with the blog model mounted at /api, locales en (default) and fr, the public
 * permissions and the two API tokens of the model's permissions.json, uploads served at /uploads.
 */
export async function createBlogApp(options: BlogAppOptions = {}): Promise<{ app: express.Express; router: ContentRouter; close(): Promise<void> }> {
  const model = loadBlogModel();
  const uploadsDir = options.uploadsDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'content-router-uploads-'));
  const engine = options.engine ?? memoryEngine(options.dataFile ? { file: options.dataFile } : {});
  const router = createContentRouter({
    contentTypes: model.contentTypes,
    components: model.components,
    engine,
    i18n: { locales: model.permissions.locales.all, defaultLocale: model.permissions.locales.default },
    rest: { defaultLimit: 25, maxLimit: 100 },
    auth: {
      public: { actions: model.permissions.public.actions },
      apiTokens: model.permissions.apiTokens.map((t) => ({ name: t.name, type: t.type, accessKey: t.accessKey })),
    },
    upload: { directory: uploadsDir },
  });
  const app = express();
  app.disable('x-powered-by');
  app.use('/uploads', serveUploads(uploadsDir));
  app.use('/api', router);
  await router.ready;
  if (options.seed !== false) await seedDemo(app, model.permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey);
  return { app, router, close: () => engine.close() };
}
