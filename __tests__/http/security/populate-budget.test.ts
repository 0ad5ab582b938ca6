import express from 'express';
import request from 'supertest';
import { createContentRouter, type ContentRouter, type Engine } from '../../../lib';
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

beforeAll(async () => {
  const engine = testEngine();
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

  it('refuses a maxJoinedRows that is not a positive integer', () => {
    for (const maxJoinedRows of [0, 1.5, -3]) {
      expect(() => createContentRouter({ contentTypes: model.contentTypes, components: model.components, rest: { maxJoinedRows } })).toThrow('maxJoinedRows');
    }
  });
});
