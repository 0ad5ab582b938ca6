import request from 'supertest';
import { ConfigurationError, createContentRouter } from '../../../lib';
import { loadBlogModel } from '../../../examples/blog/model';
import { blogAuthOptions, createBlogAuthApp, FULL_KEY, READ_KEY, type BlogAuthApp } from '../auth/blog-auth-app';
import { expectStrapiError } from '../../helpers/http';

// GET /api/i18n/locales: the i18n plugin's Content API route, a bare array under plugin::i18n.locales.listLocales.
const LIST = 'plugin::i18n.locales.listLocales';
const model = loadBlogModel();
const withList = () => blogAuthOptions({ public: { actions: [...model.permissions.public.actions, LIST] } });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('GET /api/i18n/locales', () => {
  let blog: BlogAuthApp;
  beforeAll(async () => {
    blog = await createBlogAuthApp(withList(), false);
  });
  afterAll(() => blog.close());

  it("answers Strapi's bare array of locales", async () => {
    const res = await request(blog.app).get('/api/i18n/locales').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual([
      { id: 1, documentId: expect.stringMatching(UUID), name: 'English (en)', code: 'en', createdAt: expect.any(String), updatedAt: expect.any(String), publishedAt: expect.any(String), isDefault: true },
      { id: 2, documentId: expect.stringMatching(UUID), name: 'French (fr)', code: 'fr', createdAt: expect.any(String), updatedAt: expect.any(String), publishedAt: expect.any(String), isDefault: false },
    ]);
    const [en] = res.body as { createdAt: string; documentId: string }[];
    expect(new Date(en!.createdAt).toISOString()).toBe(en!.createdAt);
    // The same documentIds from another router (another start, another instance).
    const other = await createBlogAuthApp(withList(), false);
    try {
      const again = (await request(other.app).get('/api/i18n/locales').expect(200)).body as { documentId: string }[];
      expect(again.map((l) => l.documentId)).toEqual((res.body as { documentId: string }[]).map((l) => l.documentId));
    } finally {
      await other.close();
    }
  });

  it('other methods are 405; a query string is ignored', async () => {
    expect((await request(blog.app).post('/api/i18n/locales').send({})).status).toBe(405);
    expect((await request(blog.app).get('/api/i18n/locales?filters[code][$eq]=fr').expect(200)).body).toHaveLength(2);
  });

  it('a full-access token may list them; a read-only token may not (Strapi: only find and findOne actions)', async () => {
    await request(blog.app).get('/api/i18n/locales').set('Authorization', `Bearer ${FULL_KEY}`).expect(200);
    expectStrapiError(await request(blog.app).get('/api/i18n/locales').set('Authorization', `Bearer ${READ_KEY}`), 403, 'ForbiddenError', 'Forbidden');
  });
});

describe('GET /api/i18n/locales: permissions and options', () => {
  const router = (options: Record<string, unknown>) =>
    createContentRouter({ contentTypes: model.contentTypes, components: model.components, upload: false, ...options });

  it('is private by default: 403 without plugin::i18n.locales.listLocales', async () => {
    const blog = await createBlogAuthApp(blogAuthOptions(), false);
    try {
      expectStrapiError(await request(blog.app).get('/api/i18n/locales'), 403, 'ForbiddenError', 'Forbidden');
    } finally {
      await blog.close();
    }
  });

  it("auth: { public: 'all' } opens it; locales may carry a display name", async () => {
    const express = (await import('express')).default;
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const r = router({ auth: { public: 'all' }, i18n: { locales: [{ code: 'fr', name: 'Français' }, 'en', { code: 'pt-BR' }], defaultLocale: 'en' } });
      await r.ready;
      const app = express().use('/api', r);
      const res = await request(app).get('/api/i18n/locales').expect(200);
      expect((res.body as Record<string, unknown>[]).map((l) => [l.id, l.code, l.name, l.isDefault])).toEqual([
        [1, 'fr', 'Français', false],
        [2, 'en', 'English (en)', true],
        [3, 'pt-BR', 'Brazilian Portuguese (pt-BR)', false],
      ]);
      // Named locales work everywhere a code does.
      await request(app).get('/api/articles?locale=fr').expect(200);
      await r.engine.close();
    } finally {
      warn.mockRestore();
    }
  });

  it.each([
    [{ auth: { public: { actions: ['plugin::i18n.locales.find'] } } }, /CR_INVALID_OPTIONS: auth\.public\.actions\[0\] must be plugin::i18n\.locales\.listLocales/],
    [{ i18n: { locales: [{ code: 'fr', name: '' }] } }, /CR_INVALID_LOCALES: i18n\.locales\[0\]\.name must be a non-empty string/],
    [{ i18n: { locales: [{ name: 'French' }] } }, /CR_INVALID_LOCALES: i18n\.locales\[0\] must be a locale code/],
    [{ i18n: { locales: ['en', { code: 'en' }] } }, /CR_INVALID_LOCALES: i18n\.locales lists "en" twice/],
    [{ i18n: { locales: [] } }, /CR_INVALID_LOCALES: i18n\.locales must be a non-empty array/],
  ])('start-up checks: %j', (options, message) => {
    expect(() => router(options)).toThrow(ConfigurationError);
    expect(() => router(options)).toThrow(message);
  });
});
