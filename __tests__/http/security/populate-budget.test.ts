import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { createContentRouter, type ContentRouter, type Engine } from '../../../lib';
import type { Pipeline } from '../../../lib/engine';
import { loadBlogModel } from '../../../examples/blog/model';
import { seedBlog } from '../../../bench/seed-blog';
import { expectStrapiError } from '../../helpers/http';
import { testEngine } from '../../helpers/test-engine';

/**
 * Issue 11: populate through to-many relations multiplies at every level (the 8-level
 * `categories.articles.categories...` of a page answered 1.5 GB after a minute). Every read has a budget of
 * populated rows (`rest.maxJoinedRows`, default 10000, all levels together): over it, a 400 ValidationError
 * naming the populate path and the limit, at once. Legitimate deep populates stay well inside it.
 *
 * Data (bench/seed-blog, through the engine): 300 articles (a draft and a published row each) with 2 of 3
 * categories each (so each category has about 200 published articles), 20 authors, categories in a parent chain.
 */
const model = loadBlogModel();
const token = model.permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;

interface Blog {
  app: express.Express;
  router: ContentRouter;
}

async function blogApp(engine: Engine, maxJoinedRows?: number): Promise<Blog> {
  const router = createContentRouter({
    contentTypes: model.contentTypes,
    components: model.components,
    engine,
    i18n: { locales: model.permissions.locales.all, defaultLocale: model.permissions.locales.default },
    rest: maxJoinedRows === undefined ? {} : { maxJoinedRows },
    auth: { apiTokens: [{ name: 'full', type: 'full-access', accessKey: token }] },
    upload: false,
  });
  await router.ready;
  return { app: express().use('/api', router), router };
}

let blog: Blog;
let small: Blog;

/** What the engine was asked, request after request: each aggregate's pipeline, and the counts. */
const calls: { aggregates: Pipeline[]; rows: number[]; counts: number } = { aggregates: [], rows: [], counts: 0 };

/** `engine`, recording its aggregates and counts in {@link calls} (the engine double of the MongoDB guarantee below). */
function recording(engine: Engine): Engine {
  return new Proxy(engine, {
    get(target, key, receiver) {
      if (key === 'aggregate') {
        return async (c: string, p: Pipeline, o?: object) => {
          calls.aggregates.push(p);
          const rows = await target.aggregate(c, p, o);
          calls.rows.push(rows.length);
          return rows;
        };
      }
      if (key === 'count') return (c: string, f: Record<string, unknown>) => (calls.counts++, target.count(c, f));
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A join count step (documents/join-budget): it unwinds the joined rows into pairs numbered by join; a read never does. */
const isJoinCount = (pipeline: Pipeline): boolean => pipeline.some((stage) => JSON.stringify(stage.$unwind ?? null).includes('"includeArrayIndex":"n"'));
/** A fan-out statistic (pipeline/compile-fan-out): its largest `m`, `$sort: { m: -1 }` then `$limit: 1`. */
const isStatistic = (pipeline: Pipeline): boolean => JSON.stringify(pipeline.slice(-2)) === '[{"$sort":{"m":-1}},{"$limit":1}]';

/** The aggregates `send` made: the join count's steps, the fan-out statistics and the reads; the counts. */
async function asked<T>(send: () => Promise<T>): Promise<{ result: T; steps: number; pairs: number; statistics: number; reads: number; counts: number }> {
  calls.aggregates = [];
  calls.rows = [];
  calls.counts = 0;
  const result = await send();
  const steps = calls.aggregates.filter(isJoinCount).length;
  const statistics = calls.aggregates.filter(isStatistic).length;
  const pairs = calls.rows.filter((_n, i) => isJoinCount(calls.aggregates[i]!)).reduce((a, b) => a + b, 0);
  return { result, steps, pairs, statistics, reads: calls.aggregates.length - steps - statistics, counts: calls.counts };
}

beforeAll(async () => {
  const engine = recording(testEngine());
  blog = await blogApp(engine);
  small = await blogApp(engine, 50);
  await seedBlog(engine, { articles: 300, authors: 20, categories: 3, files: 10 });
});

const get = (app: express.Express, path: string): request.Test => request(app).get(path).set('authorization', `Bearer ${token}`);
const chain = (n: number, a: string, b: string): string[] => Array.from({ length: n }, (_v, i) => (i % 2 ? b : a));
const bracket = (path: readonly string[], leaf = 'true'): string => `populate${path.map((p, i) => (i ? `[populate][${p}]` : `[${p}]`)).join('')}=${leaf}`;

/** Asserts the over-budget answer: a 400 naming the populate path (a prefix of `within`) and the limit. */
function expectOverBudget(res: request.Response, max: number, within: string): void {
  expectStrapiError(res, 400, 'ValidationError');
  expect(res.body.error.message).toMatch(new RegExp(`^Invalid populate parameter: \\S+ joins more than ${max} rows`));
  const { details } = res.body.error as { details: { path: string; param: string; limit: string; option: string; max: number } };
  expect(details).toMatchObject({ param: 'populate', source: 'query', limit: 'maxJoinedRows', option: 'rest.maxJoinedRows', max });
  expect(`${within}.`.startsWith(`${details.path}.`)).toBe(true);
  expect(res.body.error.message).toContain(` ${details.path} `);
}

describe('the populate budget (rest.maxJoinedRows)', () => {
  it('answers the 8-level many-to-many chain of the issue with a 400 at the default limit, in every form', async () => {
    const path = chain(8, 'categories', 'articles');
    for (const query of [bracket(path), `populate[0]=${path.join('.')}`, `populate=${path.join('.')}`, `${bracket(path.slice(0, 7), '*').replace(/=\*$/, '[populate]=*')}`]) {
      expectOverBudget(await get(blog.app, `/api/articles?${query}&pagination[pageSize]=100`), 10_000, path.join('.'));
    }
  });

  it('counts the rows of mappedBy sides and filters/sorts at every level alike', async () => {
    const query = 'populate[articles][filters][title][$containsi]=article&populate[articles][sort]=title:desc'
      + '&populate[articles][populate][categories][populate][articles][populate][author][populate][articles]=true';
    expectOverBudget(await get(blog.app, `/api/categories?${query}`), 10_000, 'articles.categories.articles.author.articles');
  });

  it('names the path inside components and dynamic zones, and applies a configured limit', async () => {
    expectOverBudget(await get(small.app, '/api/articles?populate[categories][populate][articles]=true'), 50, 'categories.articles');
    const res = await get(small.app, '/api/articles?populate[seo][populate][shareImage]=true&pagination[pageSize]=100');
    expectOverBudget(res, 50, 'seo.shareImage');
  });

  it('does not count `count` populates, and keeps a read inside the limit whole', async () => {
    const counted = await get(small.app, '/api/categories?populate[articles][count]=true');
    expect(counted.status).toBe(200);
    expect((counted.body.data as { articles: { count: number } }[]).map((c) => c.articles.count).every((n) => n > 100)).toBe(true);
    const inside = await get(small.app, '/api/articles?populate[author]=true&populate[categories]=true&pagination[pageSize]=10');
    expect(inside.status).toBe(200);
    expect(inside.body.data).toHaveLength(10);
  });

  it('keeps a 6-level chain of to-one relations, on a page of 100, well inside the default', async () => {
    const res = await get(blog.app, `/api/articles?${bracket(['author', 'avatar'])}&populate[categories][populate][parent][populate][parent][populate][parent][populate][parent][populate][parent]=true&pagination[pageSize]=100`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    const six = await get(blog.app, `/api/categories?populate=${chain(6, 'parent', 'parent').join('.')}&pagination[pageSize]=100`);
    expect(six.status).toBe(200);
  });

  it('keeps a page whose dynamic zone populates dozens of components well inside the default', async () => {
    const blocks = Array.from({ length: 40 }, (_v, i) => (i % 2 ? { __component: 'shared.media', file: 1 + (i % 10) } : { __component: 'shared.slider', files: [1, 2, 3, 4, 5] }));
    const put = await request(blog.app).put('/api/about').set('authorization', `Bearer ${token}`).send({ data: { title: 'About', blocks } });
    expect(put.status).toBe(200);
    const res = await get(blog.app, '/api/about?populate[blocks][populate]=*');
    expect(res.status).toBe(200);
    const got = res.body.data.blocks as { file?: { id: number }; files?: unknown[] }[];
    expect(got).toHaveLength(40);
    expect(got.filter((b) => b.file?.id !== undefined)).toHaveLength(20);
    expect(got.filter((b) => b.files?.length === 5)).toHaveLength(20);
  });

  it('counts the joins of a relation sort (one per matching document) on the embedded engine; MongoDB bounds them by maxTimeMS', async () => {
    const res = await get(small.app, '/api/articles?sort=author.name:desc&pagination[pageSize]=5');
    if (process.env.MONGODB_URI) {
      expect(res.status).toBe(200);
      return;
    }
    expectStrapiError(res, 400, 'ValidationError', 'Invalid sort parameter: sorting by a field of author joins more than 50 rows (the read\'s join budget)');
    expect(res.body.error.details).toMatchObject({ param: 'sort', path: 'author', limit: 'maxJoinedRows', option: 'rest.maxJoinedRows', max: 50 });
    expect((await get(blog.app, '/api/articles?sort=author.name:desc&pagination[pageSize]=5')).status).toBe(200);
  });

  it('applies to the document service too, as a rejected promise', async () => {
    const articles = blog.router.documents('api::article.article');
    await expect(articles.findMany(`populate=${chain(8, 'categories', 'articles').join('.')}`)).rejects.toMatchObject({ name: 'ValidationError', details: { limit: 'maxJoinedRows' } });
  });

  it('refuses the shapes that multiply before the read runs: a join count step per level at most, never the read (the MongoDB guarantee)', async () => {
    const m2m = chain(8, 'categories', 'articles');
    const shapes = [
      `/api/articles?${bracket(m2m)}`,
      `/api/articles?populate[0]=${m2m.join('.')}&pagination[pageSize]=100`,
      `/api/authors?${bracket(chain(8, 'articles', 'author'))}&pagination[pageSize]=100`,
      `/api/categories?${bracket(chain(10, 'articles', 'categories'))}`,
      `/api/articles/article-000001?${bracket(m2m)}`,
    ];
    for (const path of shapes) {
      const { result: res, steps, pairs, reads } = await asked(() => get(blog.app, path));
      const within = path.includes('/api/authors') ? chain(8, 'articles', 'author') : path.includes('/api/categories') ? chain(10, 'articles', 'categories') : m2m;
      expectOverBudget(res, 10_000, within.join('.'));
      expect({ path, reads }).toEqual({ path, reads: 0 });
      // One step per populated level reached, each asking for at most what is left of the budget + 1 rows.
      expect(steps).toBeGreaterThan(0);
      expect(steps).toBeLessThanOrEqual((res.body.error.details.path as string).split('.').length);
      expect(pairs).toBeLessThanOrEqual(10_001);
    }
    const articles = blog.router.documents('api::article.article');
    const service = await asked(() => articles.findMany(`populate=${m2m.join('.')}`).catch((error: unknown) => error));
    expect(service.result).toMatchObject({ name: 'ValidationError', details: { limit: 'maxJoinedRows' } });
    expect(service.reads).toBe(0);
  });

  it('runs a read within the budget that its row counts cannot clear after the join count, with the same answer', async () => {
    const path = '/api/articles?populate[categories][populate][articles][fields][0]=title&pagination[pageSize]=30';
    await get(blog.app, path); // the fan-out statistics: at most 2 categories an article, 175 published articles a category
    const counted = await asked(() => get(blog.app, path));
    expect(counted.result.status).toBe(200);
    expect({ steps: counted.steps, reads: counted.reads }).toEqual({ steps: 2, reads: 1 }); // 30 x 2 x (1 + 175) > 10,000: counted
    const joined = (counted.result.body.data as { categories: { articles: unknown[] }[] }[]).flatMap((a) => a.categories.flatMap((c) => [c, ...c.articles])).length;
    expect(joined).toBeGreaterThan(1000);
    expect(joined).toBeLessThanOrEqual(10_000);
    const unbounded = await blogApp(blog.router.engine, 1_000_000);
    expect((await get(unbounded.app, path)).body).toEqual(counted.result.body);
  });

  it('reads legitimate deep populates in ONE aggregate: a 6-level to-one chain, and every nested populate of the corpus', async () => {
    const toOne = `/api/articles?${bracket(['author', 'avatar'])}&populate[categories][populate][parent][populate][parent][populate][parent][populate][parent][populate][parent]=true&pagination[pageSize]=100`;
    const first = await asked(() => get(blog.app, toOne));
    expect(first.result.status).toBe(200);
    expect({ steps: first.steps, statistics: first.statistics, reads: first.reads, counts: first.counts }).toEqual({ steps: 0, statistics: 0, reads: 1, counts: 0 });
    const corpus = JSON.parse(readFileSync(join(__dirname, '../../conformance/corpus/cases.json'), 'utf8')) as { cases: { method: string; path: string }[] };
    const nested = corpus.cases.filter((c) => c.method === 'GET' && /\[populate\]/.test(c.path)).map((c) => c.path.replace(/\{\{art\.[a-z0-9]+\}\}/g, 'article-000007').replace(/\{\{cat\.[a-z]+\}\}/g, 'category-000002'));
    expect(nested.length).toBeGreaterThanOrEqual(8);
    for (const path of nested) {
      await get(blog.app, path); // row counts, when a path has two joins that fan out, are then kept
      const again = await asked(() => get(blog.app, path));
      const read = again.result.status === 200 ? 1 : 0; // a 400 of the query parser reads nothing
      expect(again.result.status).toBeLessThan(500);
      expect({ path, steps: again.steps, statistics: again.statistics, reads: again.reads, counts: again.counts }).toEqual({ path, steps: 0, statistics: 0, reads: read, counts: 0 });
    }
  });

  it('counts only the rows a per-parent limit keeps: a limit lowers the estimate, the read stays one aggregate', async () => {
    // 5 articles x 2 categories x 175 articles each is over 50 rows; 2 articles per category keep 5 x 2 x (1 + 2) = 30.
    const path = '/api/articles?populate[categories][populate][articles][fields][0]=title&pagination[pageSize]=5';
    expectOverBudget(await get(small.app, path), 50, 'categories.articles');
    const limited = await get(small.app, `${path}&populate[categories][populate][articles][limit]=2&populate[categories][populate][articles][withCount]=true`);
    expect(limited.status).toBe(200);
    const categories = (limited.body.data as { categories: { articles: unknown[]; meta: { articles: { count: number } } }[] }[]).flatMap((a) => a.categories);
    expect(categories.length).toBeGreaterThan(5);
    expect(categories.every((c) => c.articles.length === 2 && c.meta.articles.count > 100)).toBe(true);
    // A start past every category's articles keeps none: the bound cannot tell, the join count counts the kept rows.
    const past = await asked(() => get(small.app, `${path}&populate[categories][populate][articles][start]=1000`));
    expect(past.result.status).toBe(200);
    expect(past.steps).toBeGreaterThan(0);
    expect((past.result.body.data as { categories: { articles: unknown[] }[] }[]).flatMap((a) => a.categories).every((c) => c.articles.length === 0)).toBe(true);
    // 4 levels of 3 per parent on a page of 25: 25 x (3 + 9 + 27 + 81) = 3,000 rows, cleared by the bound alone.
    const chained = chain(4, 'categories', 'articles').map((name) => `${name}`);
    const limits = chained.map((_n, i) => `populate${chained.slice(0, i + 1).map((p, j) => (j ? `[populate][${p}]` : `[${p}]`)).join('')}[limit]=3`).join('&');
    const deep = await asked(() => get(blog.app, `/api/articles?${limits}&populate${chained.map((p, j) => (j ? `[populate][${p}]` : `[${p}]`)).join('')}[fields][0]=title`));
    expect(deep.result.status).toBe(200);
    expect({ steps: deep.steps, reads: deep.reads }).toEqual({ steps: 0, reads: 1 });
    expectOverBudget(await get(blog.app, `/api/articles?${bracket(chained)}`), 10_000, chained.join('.'));
  });

  it('refuses a maxJoinedRows that is not a positive integer', () => {
    for (const maxJoinedRows of [0, 1.5, -3]) {
      expect(() => createContentRouter({ contentTypes: model.contentTypes, components: model.components, rest: { maxJoinedRows } })).toThrow('maxJoinedRows');
    }
  });
});
