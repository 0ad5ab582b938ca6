import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createBlogApp } from '../../../examples/blog/app';
import { expectStrapiError } from '../../helpers/http';
import { testEngine } from '../../helpers/test-engine';
import { FULL_ACCESS, rows, seedQueryFixture, type QueryFixture } from './seed';

/**
 * Per-parent populate pagination over HTTP on the blog data set (docs/rest-api.md "Paging a populated
 * relation"): `populate[<rel>][start|limit]` on each to-many kind, nested, with filters and sort, `withCount`'s
 * `meta.<rel>.count`, the row shape kept for clients that do not ask, every bad value a 400, and Strapi's 400
 * when the app asks for strict Strapi behaviour (`rest.populatePagination: false`, the example's STRAPI_COMPAT).
 * The brute-force comparison on random models is populate-page-random.test.ts.
 */
type Json = Record<string, unknown>;

let fx: QueryFixture;
beforeAll(async () => {
  fx = await seedQueryFixture();
});
afterAll(() => fx.close());

const ids = (value: unknown): unknown[] => (value as Json[]).map((row) => row.documentId ?? row.id);
const list = async (url: string): Promise<Json[]> => rows(await fx.get(url));
const byId = (data: Json[]): Map<unknown, Json> => new Map(data.map((row) => [row.documentId, row]));

describe('populate[<rel>][start|limit]: a page per parent row', () => {
  it('the mappedBy side: each category gets its own latest articles, in the populate sort', async () => {
    const base = '/api/categories?fields[0]=name&populate[articles][fields][0]=title&populate[articles][sort][0]=publishDate:desc';
    const full = byId(await list(base));
    const paged = await list(`${base}&populate[articles][limit]=2`);
    expect(paged.length).toBe(full.size);
    expect(paged.some((c) => (full.get(c.documentId)!.articles as Json[]).length > 2)).toBe(true);
    for (const category of paged) {
      expect(ids(category.articles)).toEqual(ids(full.get(category.documentId)!.articles).slice(0, 2));
      expect(category).not.toHaveProperty('meta'); // the row shape is unchanged without withCount
    }
    const second = await list(`${base}&populate[articles][start]=2&populate[articles][limit]=2`);
    for (const category of second) expect(ids(category.articles)).toEqual(ids(full.get(category.documentId)!.articles).slice(2, 4));
  });

  it('withCount answers the parent total (populate filters applied) in meta.<rel>.count beside the page', async () => {
    const base = '/api/categories?fields[0]=name&populate[articles][fields][0]=title&populate[articles][filters][views][$gt]=10';
    const full = byId(await list(base));
    const paged = await list(`${base}&populate[articles][limit]=1&populate[articles][withCount]=true`);
    for (const category of paged) {
      const all = full.get(category.documentId)!.articles as Json[];
      expect(category.articles).toEqual(all.slice(0, 1));
      expect(category.meta).toEqual({ articles: { count: all.length } });
    }
    // limit 0: no rows, the total only; the same as Strapi's count populate.
    const counts = await list('/api/categories?fields[0]=name&populate[articles][count]=true');
    const zero = await list('/api/categories?fields[0]=name&populate[articles][limit]=0&populate[articles][withCount]=true');
    expect(zero.map((c) => [c.articles, c.meta])).toEqual(counts.map((c) => [[], { articles: c.articles }]));
  });

  it('the owning side keeps the stored relation order; media multiple; localizations', async () => {
    const base = '/api/articles?fields[0]=title&pagination[pageSize]=100&populate[categories][fields][0]=name&populate[gallery][fields][0]=name&populate[localizations][fields][0]=title';
    const full = byId(await list(base));
    const paged = await list(`${base}&populate[categories][start]=1&populate[categories][limit]=1&populate[gallery][limit]=1&populate[gallery][withCount]=true&populate[localizations][limit]=0`);
    expect(paged.some((a) => (full.get(a.documentId)!.categories as Json[]).length > 1)).toBe(true);
    expect(paged.some((a) => (full.get(a.documentId)!.gallery as Json[]).length > 1)).toBe(true);
    for (const article of paged) {
      const all = full.get(article.documentId)!;
      expect(article.categories).toEqual((all.categories as Json[]).slice(1, 2));
      expect(article.gallery).toEqual((all.gallery as Json[]).slice(0, 1));
      expect(article.localizations).toEqual([]);
      expect(article.meta).toEqual({ gallery: { count: (all.gallery as Json[]).length } });
    }
  });

  it('nested levels: each category of each article gets its own page of articles and its total', async () => {
    const base = '/api/articles?fields[0]=title&populate[categories][fields][0]=name&populate[categories][populate][articles][fields][0]=title';
    const full = await list(base);
    const paged = await list(`${base}&populate[categories][populate][articles][limit]=2&populate[categories][populate][articles][withCount]=true`);
    expect(paged.map((a) => a.documentId)).toEqual(full.map((a) => a.documentId));
    paged.forEach((article, i) => {
      const categories = article.categories as Json[];
      (full[i]!.categories as Json[]).forEach((category, j) => {
        const all = category.articles as Json[];
        expect(categories[j]).toEqual({ ...category, articles: all.slice(0, 2), meta: { articles: { count: all.length } } });
      });
    });
  });

  it('one document, the v4 response format and the document service take them too', async () => {
    const one = (await fx.get(`/api/categories/${fx.categories.web}?populate[articles][limit]=1&populate[articles][withCount]=true`)).data as Json;
    expect((one.articles as Json[]).length).toBe(1);
    expect((one.meta as { articles: { count: number } }).articles.count).toBeGreaterThan(1);
    const v4 = await request(fx.app).get(`/api/categories/${fx.categories.web}?populate[articles][limit]=1&populate[articles][withCount]=true`)
      .set('authorization', `Bearer ${FULL_ACCESS}`).set('Strapi-Response-Format', 'v4');
    expect((v4.body as { data: { attributes: { articles: { data: unknown[] }; meta: unknown } } }).data.attributes).toMatchObject({ articles: { data: [expect.anything()] }, meta: one.meta });
    const service = await fx.router.documents('api::category.category').findMany({ populate: { articles: { limit: 1 } } } as never);
    expect(service.every((c) => (c as unknown as { articles: unknown[] }).articles.length <= 1)).toBe(true);
  });
});

describe('bad values: a 400 ValidationError naming the key, never a 500', () => {
  const cases: [string, RegExp][] = [
    ['populate[articles][limit]=-1', /^Invalid value for limit at articles: expected a non-negative integer$/],
    ['populate[articles][limit]=abc', /^Invalid value for limit at articles/],
    ['populate[articles][limit]=1.5', /^Invalid value for limit at articles/],
    ['populate[articles][limit]=', /^Invalid value for limit at articles/],
    ['populate[articles][limit]=101', /^Invalid value for limit at articles: expected at most 100$/],
    ['populate[articles][limit][0]=1', /^Invalid value for limit at articles/],
    ['populate[articles][limit][$gt]=1', /^Invalid value for limit at articles/],
    ['populate[articles][start]=-5', /^Invalid value for start at articles/],
    ['populate[articles][start]=99999999999999999999', /^Invalid value for start at articles: expected at most 9007199254740991$/],
    ['populate[articles][withCount]=maybe', /^Invalid value for withCount at articles: expected true or false$/],
    ['populate[articles][count]=true&populate[articles][limit]=2', /^Invalid value for limit at articles: count answers the total only/],
    ['populate[parent][limit]=2', /^Invalid value for limit at parent: parent holds at most one entry$/],
    ['populate[articles][populate][author][limit]=1', /^Invalid value for limit at author: author holds at most one entry$/],
  ];
  it.each(cases)('/api/categories?%s', async (query, message) => {
    expectStrapiError(await request(fx.app).get(`/api/categories?${query}`).set('authorization', `Bearer ${FULL_ACCESS}`), 400, 'ValidationError', expect.stringMatching(message) as unknown as string);
  });

  it.each([
    ['populate[cover][limit]=1', /^Invalid value for limit at cover: cover holds at most one entry$/],
    ['populate[seo][limit]=1', /^Invalid key limit$/],
    ['populate[blocks][limit]=1', /^Invalid key limit$/],
    ['populate[blocks][on][shared.slider][populate][files][limit]=1', /^Invalid value for limit at files: populate pagination applies to relations of content types/],
    ['populate[seo][populate][shareImage][withCount]=true', /^Invalid value for withCount at shareImage/],
  ])('/api/articles?%s', async (query, message) => {
    expectStrapiError(await request(fx.app).get(`/api/articles?${query}`).set('authorization', `Bearer ${FULL_ACCESS}`), 400, 'ValidationError', expect.stringMatching(message) as unknown as string);
  });
});

describe('strict Strapi behaviour (rest.populatePagination: false, the example app with STRAPI_COMPAT=1)', () => {
  it('answers Strapi 5\'s 400 Invalid key to start, limit and withCount', async () => {
    const uploadsDir = mkdtempSync(path.join(os.tmpdir(), 'populate-page-strict-'));
    const blog = await createBlogApp({ seed: false, uploadsDir, engine: testEngine(), strapiCompat: true });
    try {
      for (const key of ['limit', 'start', 'withCount']) {
        const res = await request(blog.app).get(`/api/categories?populate[articles][${key}]=1`).set('authorization', `Bearer ${FULL_ACCESS}`);
        expectStrapiError(res, 400, 'ValidationError', `Invalid key ${key}`);
        expect(res.body.error.details).toEqual({ key, path: key, source: 'query', param: 'populate' });
      }
      const ok = await request(blog.app).get('/api/categories?populate[articles][count]=true').set('authorization', `Bearer ${FULL_ACCESS}`);
      expect(ok.status).toBe(200);
      // The same request to the app without it is served.
      expect((await request(fx.app).get('/api/categories?populate[articles][limit]=1').set('authorization', `Bearer ${FULL_ACCESS}`)).status).toBe(200);
    } finally {
      await blog.close();
      rmSync(uploadsDir, { recursive: true, force: true });
    }
  });
});
