import type express from 'express';
import request from 'supertest';
import type { EngineStats } from '../../lib/engine/types';
import { createBlogApp } from '../../examples/blog/app';
import { loadBlogModel } from '../../examples/blog/model';
import { testEngine } from '../helpers/test-engine';

/**
 * Issue 4, "Compilation": every GET is ONE aggregation on ONE collection, whatever the populate depth and however
 * many relation filters. Counted on the engine's stats over HTTP on the example app (demo data). A populate with
 * two or more levels that fan out first needs the join budget's statistics (row counts per status: index-only
 * counts on MongoDB, docs/security.md), kept until the next write: they are fetched once in beforeAll, and the
 * last test counts what a read right after a write costs.
 */
describe('engine round trips per GET', () => {
  let app: express.Express;
  let stats: EngineStats;
  let close: () => Promise<void>;
  let helloId: string;
  const token = loadBlogModel().permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;

  type Doc = Record<string, unknown>;
  const six = 'populate[categories][populate][articles][populate][author][populate][articles][populate][categories][populate][parent]=true';

  beforeAll(async () => {
    const blog = await createBlogApp({ engine: testEngine() });
    app = blog.app;
    stats = blog.router.engine.stats;
    close = blog.close;
    const res = await request(app).get('/api/articles?filters[slug][$eq]=hello-content-router').set('authorization', `Bearer ${token}`);
    helloId = (res.body.data[0] as { documentId: string }).documentId;
    await request(app).get(`/api/articles?${six}`).set('authorization', `Bearer ${token}`);
  });
  afterAll(() => close());

  /** GETs `path` and returns its body, asserting one aggregate and no other engine call. */
  async function oneAggregate(path: string): Promise<{ data: unknown }> {
    const before = { ...stats };
    const res = await request(app).get(path).set('authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect({ aggregate: stats.aggregate - before.aggregate, find: stats.find - before.find, write: stats.write - before.write }).toEqual({
      aggregate: 1,
      find: 0,
      write: 0,
    });
    return res.body as { data: unknown };
  }


  it('depth 1: populate=*, with a relation filter', async () => {
    const body = await oneAggregate('/api/articles?populate=*&filters[author][name][$eq]=Ann%20Archer');
    const [hello] = body.data as Doc[];
    expect((hello!.author as Doc).name).toBe('Ann Archer');
    expect((hello!.categories as Doc[]).map((c) => c.slug)).toEqual(['technology', 'web']);
  });

  it('depth 3: categories.parent.parent, filtered on a relation of a relation, sorted on a relation', async () => {
    const path = '/api/articles?populate[categories][populate][parent][populate][parent]=true'
      + '&filters[categories][parent][slug][$eq]=technology&sort=author.name:desc';
    const body = await oneAggregate(path);
    const [hello] = body.data as Doc[];
    const web = (hello!.categories as Doc[]).find((c) => c.slug === 'web')!;
    expect((web.parent as Doc).slug).toBe('technology');
    expect((web.parent as Doc).parent).toBeNull();
  });

  it('depth 6: articles > categories > articles > author > articles > categories > parent, with filters', async () => {
    const body = await oneAggregate(`/api/articles?${six}&filters[author][articles][categories][slug][$eq]=web&filters[categories][name][$containsi]=tech`);
    const [hello] = body.data as Doc[];
    const tech = (hello!.categories as Doc[]).find((c) => c.slug === 'technology')!;
    const author = ((tech.articles as Doc[])[0]!.author as Doc);
    const categories = (author.articles as Doc[])[0]!.categories as Doc[];
    expect((categories.find((c) => c.slug === 'web')!.parent as Doc).slug).toBe('technology');
  });

  it('depth 6 on one document, and a category chain through mappedBy and owning sides', async () => {
    await oneAggregate(`/api/articles/${helloId}?${six}`);
    const chain = 'populate[children][populate][parent][populate][articles][populate][author][populate][avatar]=true';
    await oneAggregate(`/api/categories?${chain}&filters[children][articles][author][name][$startsWith]=Ann`);
  });

  it('right after a write, a populate with several fan-out levels first counts rows per status, then is one aggregate again', async () => {
    const created = await request(app).post('/api/categories').set('authorization', `Bearer ${token}`).send({ data: { name: 'Round trips', slug: 'round-trips' } });
    expect(created.status).toBe(201);
    const before = { ...stats };
    expect((await request(app).get(`/api/articles?${six}`).set('authorization', `Bearer ${token}`)).status).toBe(200);
    expect(stats.aggregate - before.aggregate).toBe(1);
    expect(stats.find - before.find).toBeGreaterThan(0);
    expect(stats.find - before.find).toBeLessThanOrEqual(2);
    await oneAggregate(`/api/articles?${six}`);
  });

  it('counts nothing but the aggregate on an empty page and on a 404', async () => {
    await oneAggregate('/api/articles?filters[author][name][$eq]=nobody&populate=*');
    const before = { ...stats };
    const res = await request(app).get('/api/articles/no-such-document?populate=*').set('authorization', `Bearer ${token}`);
    expect(res.status).toBe(404);
    expect(stats.aggregate - before.aggregate).toBe(1);
    expect(stats.find + stats.write).toBe(before.find + before.write);
  });
});
