import request from 'supertest';
import { createContentRouter, memoryEngine, type ContentRouterOptions } from '../../../lib';
import { loadBlogModel } from '../../../examples/blog/model';
import { blogAuthOptions, createBlogAuthApp, FULL_KEY, READ_KEY, type BlogAuthApp } from '../auth/blog-auth-app';

/**
 * The `cacheControl` option: `public, ...` on what anonymous callers read (per content type and route), `private`
 * for callers, `no-store` for drafts; the default is today's headers plus `no-store` on drafts.
 */
const varies = (res: request.Response): string[] => String(res.headers.vary ?? '').split(/\s*,\s*/).map((v) => v.toLowerCase());
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const publicActions = [...loadBlogModel().permissions.public.actions, 'plugin::upload.content-api.find', 'plugin::upload.content-api.findOne', 'api::article.article.findDrafts'];

describe('cacheControl: default', () => {
  let ctx: BlogAuthApp;
  beforeAll(async () => {
    ctx = await createBlogAuthApp();
  });
  afterAll(() => ctx.close());

  test('anonymous reads have no Cache-Control and callers private, as before', async () => {
    expect((await request(ctx.app).get('/api/articles')).headers['cache-control']).toBeUndefined();
    expect((await request(ctx.app).get('/api/articles').set(bearer(READ_KEY))).headers['cache-control']).toBe('private');
  });

  test.each(['/api/articles?status=draft', '/api/about?status=draft&populate=*'])('a draft read (%s) is no-store, its 304 too', async (path) => {
    const res = await request(ctx.app).get(path).set(bearer(FULL_KEY));
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const again = await request(ctx.app).get(path).set(bearer(FULL_KEY)).set('if-none-match', res.headers.etag as string);
    expect(again.status).toBe(304);
    expect(again.headers['cache-control']).toBe('no-store');
  });

  test('a draft findOne is no-store; a type without draft and publish ignores status=draft', async () => {
    const list = await request(ctx.app).get('/api/articles?status=draft').set(bearer(FULL_KEY));
    const id = (list.body as { data: { documentId: string }[] }).data[0]!.documentId;
    expect((await request(ctx.app).get(`/api/articles/${id}?status=draft`).set(bearer(FULL_KEY))).headers['cache-control']).toBe('no-store');
    expect((await request(ctx.app).get('/api/global?status=draft').set(bearer(FULL_KEY))).headers['cache-control']).toBe('private');
  });

  test('a published read with a token stays private', async () => {
    expect((await request(ctx.app).get('/api/articles?status=published').set(bearer(FULL_KEY))).headers['cache-control']).toBe('private');
  });
});

describe('cacheControl: configured', () => {
  let ctx: BlogAuthApp;
  let fileId: number;
  let articleId: string;
  beforeAll(async () => {
    ctx = await createBlogAuthApp(blogAuthOptions({ public: { actions: publicActions } }), true, {
      cacheControl: {
        public: { maxAge: 60, sMaxAge: 300, staleWhileRevalidate: 30 },
        contentTypes: {
          'api::article.article': { findOne: { maxAge: 5, staleIfError: 86400 } },
          'api::category.category': false,
          'api::global.global': { sMaxAge: 3600 },
          'plugin::upload.file': { find: false, findOne: { maxAge: 31536000 } },
        },
        drafts: 'private',
      },
    });
    fileId = ((await request(ctx.app).get('/api/upload/files').set(bearer(FULL_KEY))).body as { id: number }[])[0]!.id;
    articleId = ((await request(ctx.app).get('/api/articles')).body as { data: { documentId: string }[] }).data[0]!.documentId;
  });
  afterAll(() => ctx.close());

  test('anonymous reads get the route policy, the type policy, or the public one', async () => {
    const cases: [string, string | undefined][] = [
      ['/api/articles', 'public, max-age=60, s-maxage=300, stale-while-revalidate=30'],
      [`/api/articles/${articleId}`, 'public, max-age=5, stale-if-error=86400'],
      ['/api/categories', undefined],
      ['/api/global', 'public, s-maxage=3600'],
      ['/api/about', 'public, max-age=60, s-maxage=300, stale-while-revalidate=30'],
      ['/api/upload/files', undefined],
      [`/api/upload/files/${fileId}`, 'public, max-age=31536000'],
    ];
    for (const [path, expected] of cases) {
      const res = await request(ctx.app).get(path);
      expect({ path, status: res.status, cacheControl: res.headers['cache-control'] }).toEqual({ path, status: 200, cacheControl: expected });
      expect(varies(res)).toContain('authorization');
      if (expected) expect(varies(res)).toContain('strapi-response-format');
    }
  });

  test('a caller is private, an anonymous error and an anonymous draft read get no public policy', async () => {
    expect((await request(ctx.app).get('/api/articles').set(bearer(READ_KEY))).headers['cache-control']).toBe('private');
    expect((await request(ctx.app).get('/api/articles').set('authorization', 'Token malformed')).headers['cache-control']).toBe('private');
    const missing = await request(ctx.app).get('/api/articles/nope');
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBeUndefined();
    const forbidden = await request(ctx.app).get('/api/authors');
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers['cache-control']).toBeUndefined();
    const draft = await request(ctx.app).get('/api/articles?status=draft');
    expect(draft.status).toBe(200);
    expect(draft.headers['cache-control']).toBe('private');
    expect((await request(ctx.app).get('/api/articles?status=draft').set(bearer(FULL_KEY))).headers['cache-control']).toBe('private');
  });

  test('the 304 of a public answer carries its Cache-Control and Vary', async () => {
    const res = await request(ctx.app).get('/api/articles');
    const again = await request(ctx.app).get('/api/articles').set('if-none-match', res.headers.etag as string);
    expect(again.status).toBe(304);
    expect(again.headers['cache-control']).toBe(res.headers['cache-control']);
    expect(again.headers.vary).toBe(res.headers.vary);
  });
});

describe('cacheControl: checked at start-up', () => {
  const model = loadBlogModel();
  const make = (cacheControl: unknown) => () =>
    createContentRouter({ contentTypes: model.contentTypes, components: model.components, engine: memoryEngine({ ephemeral: true }), upload: false, cacheControl } as ContentRouterOptions);
  test.each<[string, unknown, RegExp]>([
    ['an unknown content type', { contentTypes: { 'api::articel.article': false } }, /CR_INVALID_OPTIONS.*unknown content type "api::articel.article" \(did you mean "api::article.article"\?\)/],
    ['findOne of a single type', { contentTypes: { 'api::global.global': { findOne: { maxAge: 1 } } } }, /CR_INVALID_OPTIONS.*a single type has no "findOne" route/],
    ['a negative age', { public: { maxAge: -1 } }, /CR_INVALID_OPTIONS.*maxAge/],
    ['a fractional age', { public: { maxAge: 1.5 } }, /CR_INVALID_OPTIONS.*maxAge/],
    ['an age beyond delta-seconds', { public: { sMaxAge: 2 ** 31 + 1 } }, /CR_INVALID_OPTIONS.*sMaxAge/],
    ['a misspelled directive', { public: { maxage: 60 } }, /CR_INVALID_OPTIONS.*maxage/],
    ['an unknown drafts value', { drafts: 'public' }, /CR_INVALID_OPTIONS.*drafts/],
    ['a misspelled key', { publc: { maxAge: 1 } }, /CR_INVALID_OPTIONS.*publc/],
  ])('%s is refused', (_name, option, message) => {
    expect(make(option)).toThrow(message);
  });

  test('a valid option starts', () => {
    expect(make({ public: false, contentTypes: { 'api::global.global': {}, 'plugin::upload.file': { findOne: false } }, drafts: 'no-store' })).not.toThrow();
  });
});
