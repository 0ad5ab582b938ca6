import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContentRouterOptions } from '../../../lib';
import type { Engine } from '../../../lib/engine';
import { loadBlogModel } from '../../../examples/blog/model';
import { testEngine } from '../../helpers/test-engine';
import { blogAuthOptions, createBlogAuthApp, type BlogAuthApp } from '../auth/blog-auth-app';

/** The blog model's router options on one fresh test engine and upload directory, for several routers to share. */
export interface BlogRouterSetup {
  readonly options: ContentRouterOptions;
  readonly engine: Engine;
  /** Closes the engine and removes the upload directory. */
  close(): Promise<void>;
}

/**
 * The options of a blog router (the example's model, its API tokens and Public role, no logger) on a new
 * {@link testEngine} (MongoDB with MONGODB_URI) and a new upload directory named after `name`.
 *
 * @example
 * const { options, engine, close } = blogRouterOptions('cache-model');
 * const cached = createContentRouter({ ...options, responseCache: { maxBytes: 400_000, shared: true } });
 */
export function blogRouterOptions(name: string): BlogRouterSetup {
  const model = loadBlogModel();
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const engine = testEngine();
  const options: ContentRouterOptions = {
    contentTypes: model.contentTypes,
    components: model.components,
    engine,
    i18n: { locales: model.permissions.locales.all, defaultLocale: model.permissions.locales.default },
    auth: blogAuthOptions(),
    upload: { directory: uploads },
    logger: false,
  };
  return {
    options,
    engine,
    close: async () => {
      await engine.close();
      fs.rmSync(uploads, { recursive: true, force: true });
    },
  };
}

/** The blog auth app with a response cache of `maxBytes`, made before the describe's tests and closed after. */
export interface CachedBlogApp {
  /** The app (set once the describe's `beforeAll` ran). */
  readonly ctx: BlogAuthApp;
  /** The cache's hits so far. */
  hits(): number;
}

/**
 * Registers, in the calling `describe`, a `beforeAll` that makes the seeded blog auth app with the response cache
 * and an `afterAll` that closes it.
 *
 * @example
 * const blog = cachedBlogApp(1_000_000);
 * test('...', async () => { await request(blog.ctx.app).get('/api/articles'); expect(blog.hits()).toBe(0); });
 */
export function cachedBlogApp(maxBytes: number): CachedBlogApp {
  let ctx: BlogAuthApp | undefined;
  beforeAll(async () => {
    ctx = await createBlogAuthApp(undefined, true, { responseCache: { maxBytes } });
  });
  afterAll(() => ctx?.close());
  return {
    get ctx() {
      if (!ctx) throw new Error('cachedBlogApp: used before its beforeAll ran');
      return ctx;
    },
    hits: () => (ctx?.router.responseCache?.hits ?? 0),
  };
}
