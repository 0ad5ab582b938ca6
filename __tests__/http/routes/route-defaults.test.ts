import express from 'express';
import request from 'supertest';
import { ConfigurationError, createContentRouter, memoryEngine, type ContentRouterOptions, type RoutesOptions } from '../../../lib';
import { loadBlogModel } from '../../../examples/blog/model';
import { blogAuthOptions, createBlogAuthApp, FULL_KEY, type BlogAuthApp } from '../auth/blog-auth-app';
import { expectStrapiError } from '../../helpers/http';

// Per-route query parameters (`routes`), the port of a Strapi project's route middlewares that set a default
// populate, and a host middleware that rewrites req.url in front of the router (Express's way).
const routes: RoutesOptions = {
  'api::article.article': {
    // ctx.query.populate = {...} in a Strapi route middleware: the route sets populate, the client cannot change it.
    find: { query: { populate: { categories: { fields: ['name'] } } } },
    // ctx.query = { populate, ...ctx.query }: a default the request replaces.
    findOne: { defaultQuery: { populate: ['cover', 'seo'], fields: ['title'] } },
    create: { query: { populate: ['categories'] } },
  },
  'api::category.category': { find: { defaultQuery: { sort: 'name:desc', pagination: { pageSize: 2 } } } },
  'api::global.global': { find: { defaultQuery: { populate: { defaultSeo: true } } } },
};

type Doc = Record<string, unknown>;
const list = (res: request.Response): Doc[] => (res.body as { data: Doc[] }).data;
const one = (res: request.Response): Doc => (res.body as { data: Doc }).data;

describe('routes: per-route query parameters', () => {
  let blog: BlogAuthApp;
  let articleId: string;
  beforeAll(async () => {
    blog = await createBlogAuthApp(blogAuthOptions(), true, { routes });
    articleId = String(list(await request(blog.app).get('/api/articles?filters[slug][$eq]=hello-content-router'))[0]!.documentId);
  });
  afterAll(() => blog.close());

  it('query: the route populates on every find, whatever the request says about populate', async () => {
    for (const url of ['/api/articles', '/api/articles?populate=author', '/api/articles?populate=*']) {
      const res = await request(blog.app).get(url).expect(200);
      const first = list(res).find((a) => a.documentId === articleId)!;
      expect((first.categories as Doc[]).map((c) => Object.keys(c).sort())).toEqual([
        ['documentId', 'id', 'name'],
        ['documentId', 'id', 'name'],
      ]);
      expect(first).not.toHaveProperty('author');
      expect(first).not.toHaveProperty('cover');
    }
  });

  it('query: the request keeps its other parameters (filters, sort, pagination)', async () => {
    const res = await request(blog.app).get('/api/articles?filters[views][$eq]=42&fields[0]=title').expect(200);
    expect(list(res)).toEqual([expect.objectContaining({ title: 'Populate in one round trip', categories: [expect.objectContaining({ name: 'Science' })] })]);
    expect(list(res)[0]).not.toHaveProperty('slug');
  });

  it('defaultQuery: used when the request does not give the key, replaced as a whole when it does', async () => {
    const byDefault = one(await request(blog.app).get(`/api/articles/${articleId}`).expect(200));
    expect(Object.keys(byDefault).sort()).toEqual(['cover', 'documentId', 'id', 'seo', 'title']);
    const own = one(await request(blog.app).get(`/api/articles/${articleId}?populate=author`).set('Authorization', `Bearer ${FULL_KEY}`).expect(200));
    expect(Object.keys(own).sort()).toEqual(['author', 'documentId', 'id', 'title']);
    // Checked per caller like the request's own: the Public role may not read authors, so nothing is populated.
    const publicOwn = one(await request(blog.app).get(`/api/articles/${articleId}?populate=author`).expect(200));
    expect(Object.keys(publicOwn).sort()).toEqual(['documentId', 'id', 'title']);
  });

  it('defaultQuery on sort and pagination of another type', async () => {
    const byDefault = await request(blog.app).get('/api/categories').expect(200);
    expect(list(byDefault).map((c) => c.name)).toEqual(['Web', 'Technology']);
    const own = await request(blog.app).get('/api/categories?sort=name:asc&pagination[pageSize]=3').expect(200);
    expect(list(own).map((c) => c.name)).toEqual(['Science', 'Technology', 'Web']);
  });

  it('a single type and a write route', async () => {
    await request(blog.app).put('/api/global').set('Authorization', `Bearer ${FULL_KEY}`).send({ data: { siteName: 'Blog', defaultSeo: { metaTitle: 'Blog' } } }).expect(200);
    const global = one(await request(blog.app).get('/api/global').expect(200));
    expect(global.defaultSeo).toEqual(expect.objectContaining({ metaTitle: 'Blog' }));
    const created = await request(blog.app)
      .post('/api/articles')
      .set('Authorization', `Bearer ${FULL_KEY}`)
      .send({ data: { title: 'Routed', slug: 'routed', categories: [] } })
      .expect(201);
    expect(one(created).categories).toEqual([]);
  });
});

describe('a host middleware that rewrites req.url in front of the router', () => {
  let blog: BlogAuthApp;
  beforeAll(async () => {
    blog = await createBlogAuthApp(blogAuthOptions(), true);
  });
  afterAll(() => blog.close());

  it('is honoured: the router reads req.url within its mount point', async () => {
    const app = express();
    app.use('/api', (req, _res, next) => {
      if (req.path === '/categories') req.url = `${req.url}${req.url.includes('?') ? '&' : '?'}sort=name:asc&populate=parent`;
      next();
    }, blog.router);
    const res = await request(app).get('/api/categories').expect(200);
    expect(list(res).map((c) => [c.name, (c.parent as Doc | null)?.name ?? null])).toEqual([
      ['Science', null],
      ['Technology', null],
      ['Web', 'Technology'],
    ]);
  });

  it('a rewrite to another path is routed there', async () => {
    const app = express();
    app.use('/api', (req, _res, next) => {
      if (req.url.startsWith('/topics')) req.url = req.url.replace('/topics', '/categories');
      next();
    }, blog.router);
    const res = await request(app).get('/api/topics?filters[slug][$eq]=web').expect(200);
    expect(list(res).map((c) => c.name)).toEqual(['Web']);
  });
});

describe('routes: checked at start-up', () => {
  const model = loadBlogModel();
  // An engine of its own, in memory on purpose (the default one would warn CR_MEMORY_ONLY: createContentRouter
  // starts the engine before it checks `routes`).
  const create = (r: unknown) => () =>
    createContentRouter({ contentTypes: model.contentTypes, components: model.components, engine: memoryEngine({ ephemeral: true }), upload: false, routes: r } as ContentRouterOptions);
  it.each([
    ['an unknown content type, naming the known ones', { 'api::nope.nope': { find: {} } }, /CR_INVALID_ROUTES: routes: unknown content type "api::nope.nope"; the content types are .*api::article\.article/],
    ['an action a single type does not have', { 'api::global.global': { findOne: {} } }, /unknown action "findOne"; a singleType has find, update, delete/],
    ['an unknown key in a route', { 'api::article.article': { find: { populate: '*' } } }, /routes\["api::article\.article"\]\.find: unknown key "populate"/],
    ['a misspelled content type, with a did-you-mean', { 'api::articles.article': { find: {} } }, /unknown content type "api::articles\.article" \(did you mean "api::article\.article"\?\)/],
    ['a misspelled action, with a did-you-mean', { 'api::article.article': { findone: {} } }, /unknown action "findone" \(did you mean "findOne"\?\)/],
    ['a misspelled route key, with a did-you-mean', { 'api::article.article': { find: { defaultquery: {} } } }, /unknown key "defaultquery" \(did you mean "defaultQuery"\?\)/],
    ['a query that does not parse', { 'api::article.article': { find: { query: { populate: { nope: true } } } } }, /routes\["api::article\.article"\]\.find\.query: Invalid key nope/],
    ['a bad sort', { 'api::category.category': { find: { defaultQuery: { sort: 'nope:asc' } } } }, /defaultQuery: Invalid key nope/],
    ['a query that is not an object', { 'api::article.article': { find: { query: 'populate=*' } } }, /find\.query must be an object/],
    ['not an object', [], /CR_INVALID_OPTIONS: options\.routes must be object/],
  ])('%s', (_name, r, message) => {
    expect(create(r)).toThrow(ConfigurationError);
    expect(create(r)).toThrow(message);
  });
});

describe('routes: bad request parameters still answer 400', () => {
  let blog: BlogAuthApp;
  beforeAll(async () => {
    blog = await createBlogAuthApp(blogAuthOptions(), false, { routes });
  });
  afterAll(() => blog.close());
  it('an invalid filter next to the route populate', async () => {
    expectStrapiError(await request(blog.app).get('/api/articles?filters[nope][$eq]=1'), 400, 'ValidationError', 'Invalid key nope');
  });
});
