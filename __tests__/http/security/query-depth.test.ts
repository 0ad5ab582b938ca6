import request from 'supertest';
import type express from 'express';
import { createBlogApp } from '../../../examples/blog/app';
import { createTestApp, expectStrapiError } from '../../helpers/http';
import { testEngine } from '../../helpers/test-engine';

/**
 * Dotted `populate` and `sort` paths are not bounded by qs's bracket depth: before the limit, a path of a few
 * hundred relation hops (`categories.articles.categories...`) made one request run for minutes and blocked
 * every other request of the process. Paths deeper than `rest.maxDepth` (default 10) are a 400.
 */
let app: express.Express;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, close } = await createBlogApp({ seed: true, engine: testEngine() }));
});
afterAll(() => close());

const hops = (n: number, a: string, b: string): string => Array.from({ length: n }, (_v, i) => (i % 2 ? b : a)).join('.');
const deep = 'Invalid populate parameter: nested deeper than 10 levels';

describe('populate depth', () => {
  it('10 levels of dotted populate still work (the deepest bracket form Strapi reads is 9)', async () => {
    const res = await request(app).get(`/api/articles?populate=${hops(10, 'categories', 'articles')}&fields[0]=title`);
    expect(res.status).toBe(200);
    expect(res.body.data[0].categories).toEqual(expect.any(Array));
  });

  it('11 levels are a 400, in every form that can reach them', async () => {
    for (const query of [
      `populate=${hops(11, 'categories', 'articles')}`,
      `populate[0]=${hops(11, 'categories', 'articles')}`,
      `populate[${hops(11, 'categories', 'articles')}]=true`,
      `populate[categories][populate]=${hops(10, 'articles', 'categories')}`,
      `populate[${hops(10, 'categories', 'articles')}][populate]=*`,
      `populate[seo][populate][socials]=true&populate=${hops(11, 'categories', 'articles')}`,
    ]) {
      const res = await request(app).get(`/api/articles?${query}`);
      expectStrapiError(res, 400, 'ValidationError', deep);
      expect(res.body.error.details).toEqual({ key: 'populate', path: null, source: 'query', param: 'populate' });
    }
  });

  it('a path of 400 hops answers at once instead of blocking the server', async () => {
    const res = await request(app).get(`/api/categories?populate=${hops(400, 'parent', 'children')}`);
    expectStrapiError(res, 400, 'ValidationError', deep);
  });

  it('components and dynamic zones count as levels too', async () => {
    const res = await request(app).get(`/api/articles?populate=seo.socials&populate[blocks][on][shared.slider][populate]=*`);
    expect(res.status).toBe(200);
    const tooDeep = `populate[categories][populate]=${hops(9, 'articles', 'categories')}.articles.seo`;
    expectStrapiError(await request(app).get(`/api/articles?${tooDeep}`), 400, 'ValidationError', deep);
  });

  it('the document service applies the same limit, as a rejected promise', async () => {
    const blog = await createBlogApp({ seed: false, engine: testEngine() });
    try {
      const articles = blog.router.documents('api::article.article');
      await expect(articles.findMany(`populate=${hops(11, 'categories', 'articles')}`)).rejects.toThrow(deep);
      await expect(articles.findOne('x', `populate=${hops(400, 'categories', 'articles')}`)).rejects.toThrow(deep);
      await expect(articles.findFirst(`sort=${hops(11, 'categories', 'articles')}.title`)).rejects.toThrow(/deeper than 10 levels/);
    } finally {
      await blog.close();
    }
  });
});

describe('sort depth', () => {
  it('a sort path through 10 relations works, through 11 is a 400', async () => {
    expect((await request(app).get(`/api/articles?sort=${hops(10, 'categories', 'articles')}.name`)).status).toBe(400); // articles has no name
    expect((await request(app).get(`/api/articles?sort=${hops(10, 'categories', 'articles')}.title`)).status).toBe(200);
    const res = await request(app).get(`/api/articles?sort=${hops(12, 'categories', 'articles')}.title`);
    expectStrapiError(res, 400, 'ValidationError', 'Invalid sort parameter: nested deeper than 10 levels');
    expect(res.body.error.details).toEqual({ key: 'sort', path: null, source: 'query', param: 'sort' });
  });

  it('a sort path of 400 hops answers at once', async () => {
    const res = await request(app).get(`/api/articles?sort=${hops(400, 'categories', 'articles')}.title`);
    expectStrapiError(res, 400, 'ValidationError', 'Invalid sort parameter: nested deeper than 10 levels');
  });
});

describe('sort size', () => {
  const paths = (n: number, path: (i: number) => string): string => Array.from({ length: n }, (_v, i) => path(i)).join(',');

  it('a repeated sort key counts once, with its first direction; later directions are still validated', async () => {
    const res = await request(app).get(`/api/articles?fields[0]=views&sort=${paths(1000, (i) => (i % 2 ? 'views:asc' : 'views:desc'))}`);
    expect(res.status).toBe(200);
    const views = res.body.data.map((d: { views: number }) => d.views);
    expect(views).toEqual([...views].sort((a, b) => b - a));
    expectStrapiError(await request(app).get('/api/articles?sort=title:asc,title:up'), 400, 'ValidationError', 'Invalid order. order can only be one of asc|desc|ASC|DESC');
  });

  it('more than 50 distinct sort keys are a 400', async () => {
    const articleKeys = ['title', 'slug', 'description', 'views', 'rating', 'featured', 'publishDate', 'createdAt', 'updatedAt', 'id'];
    const categoryKeys = ['name', 'slug', 'description', 'createdAt', 'updatedAt', 'id'];
    const many = [
      ...['', 'categories.articles.', 'categories.articles.categories.articles.'].flatMap((p) => articleKeys.map((k) => p + k)),
      ...['categories.', 'categories.articles.categories.', 'categories.parent.', 'categories.children.'].flatMap((p) => categoryKeys.map((k) => p + k)),
    ];
    expect(new Set(many).size).toBe(54);
    const fine = await request(app).get(`/api/articles?sort=${many.slice(0, 50).join(',')}`);
    expect(fine.status).toBe(200);
    expectStrapiError(await request(app).get(`/api/articles?sort=${many.join(',')}`), 400, 'ValidationError', 'Invalid sort parameter: more than 50 sort keys');
  });
});

describe('rest.maxDepth', () => {
  it('is configurable', async () => {
    const { app: shallow } = await createTestApp({ rest: { maxDepth: 1 } });
    expect((await request(shallow).get('/api/makers?populate=partner')).status).toBe(200);
    expectStrapiError(await request(shallow).get('/api/makers?populate=partner.partner'), 400, 'ValidationError', 'Invalid populate parameter: nested deeper than 1 level');
    await expect(createTestApp({ rest: { maxDepth: 0 } })).rejects.toThrow(/maxDepth/);
  });
});
