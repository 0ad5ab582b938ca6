import request from 'supertest';
import { loadBlogModel } from '../../../examples/blog/model';
import { createBlogAuthApp, FULL_KEY, type BlogAuthApp } from '../auth/blog-auth-app';

/**
 * `Strapi-Response-Format: v4`. The reference below restates Strapi 5's own v4 transform
 * (packages/core/core/src/core-api/controller/transform.ts): entries become `{ id, documentId, attributes }`;
 * relations and media are wrapped in `{ data }` (null and [] included); components stay inline as
 * `{ id, ...attributes }` with their own relations/media wrapped; dynamic zone items likewise, by `__component`;
 * `localizations` is a relation of the type itself. Every v4 answer must equal reference(v5 answer).
 */

type Json = Record<string, unknown>;
interface Schema {
  attributes: Record<string, { type: string; target?: string; component?: string }>;
  info?: { singularName: string };
  pluginOptions?: { i18n?: { localized?: boolean } };
}

const model = loadBlogModel();
const types = new Map<string, Schema>();
for (const ct of model.contentTypes as Schema[]) types.set(`api::${ct.info!.singularName}.${ct.info!.singularName}`, ct);
const components = model.components as Record<string, Schema>;
const FILE: Schema = { attributes: {} };

function entry(value: unknown, schema: Schema | undefined): unknown {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map((v) => entry(v, schema));
  const { id, documentId, ...rest } = value as Json;
  return { id, documentId, attributes: attributes(rest, schema) };
}

function component(value: unknown, schema: Schema | undefined): unknown {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map((v) => component(v, schema));
  const { id, ...rest } = value as Json;
  return { id, ...attributes(rest, schema) };
}

function attributes(values: Json, schema: Schema | undefined): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(values)) {
    const a = schema?.attributes[key];
    if (key === 'localizations' && schema?.pluginOptions?.i18n?.localized) out[key] = { data: entry(value, schema) };
    else if (a?.type === 'relation') out[key] = { data: entry(value, types.get(a.target!)) };
    else if (a?.type === 'media') out[key] = { data: entry(value, FILE) };
    else if (a?.type === 'component') out[key] = component(value, components[a.component!]);
    else if (a?.type === 'dynamiczone') out[key] = (value as Json[]).map((item) => component(item, components[item.__component as string]));
    else out[key] = value;
  }
  return out;
}

const reference = (uid: string, body: Json): Json => ({ data: entry(body.data, types.get(uid)), meta: body.meta });

let ctx: BlogAuthApp;
let first: string;
beforeAll(async () => {
  ctx = await createBlogAuthApp();
  first = (await ctx.router.documents('api::article.article').findMany('filters[slug][$eq]=hello-content-router')).data[0]!.documentId as string;
});
afterAll(() => ctx.close());

const get = (path: string, v4: boolean) => {
  const req = request(ctx.app).get(path).set('authorization', `Bearer ${FULL_KEY}`);
  return v4 ? req.set('Strapi-Response-Format', 'v4') : req;
};

describe('reads: v4 = Strapi transform of v5', () => {
  const CASES: [string, string][] = [
    ['api::article.article', '/api/articles?populate=*'],
    ['api::article.article', '/api/articles/:first?populate=*'],
    ['api::article.article', '/api/articles/:first?populate[seo][populate]=*&populate[blocks][populate]=*&populate[gallery]=true'],
    ['api::article.article', '/api/articles/:first?populate[author][populate]=*&populate[categories][populate][parent][populate]=*'],
    ['api::article.article', '/api/articles/:first?populate[localizations][populate]=*&locale=en'],
    ['api::article.article', '/api/articles/:first?populate[blocks][on][shared.media][populate]=*&populate[blocks][on][shared.quote]=true'],
    ['api::article.article', '/api/articles?fields[0]=title&populate[categories][count]=true'],
    ['api::article.article', '/api/articles?status=draft&populate=*&locale=*'],
    ['api::author.author', '/api/authors?populate[articles][populate][cover][fields][0]=url&populate=avatar'],
    ['api::category.category', '/api/categories?populate=*'],
    ['api::global.global', '/api/global?populate=*'],
    ['api::global.global', '/api/global?populate[defaultSeo][populate]=*&populate[favicon]=true'],
    ['api::about.about', '/api/about?populate[blocks][populate]=*'],
  ];
  test.each(CASES)('%s %s', async (uid, raw) => {
    const path = raw.replace(':first', first);
    const [v5, v4] = await Promise.all([get(path, false), get(path, true)]);
    expect(v5.status).toBe(200);
    expect(v4.status).toBe(200);
    expect(v4.body).toEqual(reference(uid, v5.body as Json));
  });
});

describe('reads: explicit shapes', () => {
  test('an article with every kind of field', async () => {
    const res = await get(`/api/articles/${first}?populate[cover][fields][0]=name&populate[gallery]=true&populate[author][fields][0]=name&populate[categories][fields][0]=name&populate[seo][populate]=*&populate[blocks][populate]=*&fields[0]=title`, true);
    const data = res.body.data;
    expect(Object.keys(data)).toEqual(['id', 'documentId', 'attributes']);
    expect(data.attributes.title).toBe('Hello content-router');
    expect(data.attributes.cover).toEqual({ data: { id: expect.any(Number), documentId: expect.any(String), attributes: { name: 'cover.png' } } });
    expect(data.attributes.gallery).toEqual({ data: [] });
    expect(data.attributes.author).toEqual({ data: { id: expect.any(Number), documentId: expect.any(String), attributes: { name: 'Ann Archer' } } });
    expect(data.attributes.categories.data.map((c: Json) => (c.attributes as Json).name)).toEqual(['Technology', 'Web']);
    // components: inline, with id, their media wrapped
    expect(data.attributes.seo).toMatchObject({ id: expect.any(Number), metaTitle: 'Hello', socials: [{ id: expect.any(Number), network: 'twitter' }] });
    expect(data.attributes.seo.shareImage.data.attributes.name).toBe('cover.png');
    expect(data.attributes.seo).not.toHaveProperty('attributes');
    // dynamic zone: inline items keyed by __component
    const blocks = data.attributes.blocks as Json[];
    expect(blocks.map((b) => b.__component)).toEqual(['shared.rich-text', 'shared.quote', 'shared.media']);
    expect((blocks[2]!.file as Json).data).toMatchObject({ attributes: { name: 'cover.png' } });
  });

  test('an empty to-one relation is { data: null }', async () => {
    const res = await get('/api/articles?filters[slug][$eq]=populate-one-round-trip&populate[cover]=true&fields[0]=title', true);
    expect(res.body.data[0].attributes.cover).toEqual({ data: null });
  });

  test('localizations are wrapped entries', async () => {
    const res = await get(`/api/articles/${first}?fields[0]=title&populate[localizations][fields][0]=title`, true);
    expect(res.body.data.attributes.localizations).toEqual({
      data: [{ id: expect.any(Number), documentId: first, attributes: { title: 'Bonjour content-router' } }],
    });
  });

  test('meta is unchanged', async () => {
    const res = await get('/api/articles?pagination[pageSize]=1&fields[0]=title', true);
    expect(res.body.meta).toEqual({ pagination: { page: 1, pageSize: 1, pageCount: 2, total: 2 } });
  });

  test('errors and upload answers keep their shape', async () => {
    const missing = await get('/api/articles/nope', true);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
    const files = await get('/api/upload/files', true);
    expect(Array.isArray(files.body)).toBe(true);
    expect(files.body[0]).toHaveProperty('url');
  });

  test('without the header (or with another value) the answer is v5', async () => {
    const res = await request(ctx.app).get('/api/articles?fields[0]=title').set('Strapi-Response-Format', 'v5');
    expect(res.body.data[0]).toHaveProperty('title');
    expect(res.body.data[0]).not.toHaveProperty('attributes');
  });
});

describe('writes answer in v4 too', () => {
  const send = (method: 'post' | 'put', path: string, data: Json) =>
    request(ctx.app)[method](path).set('authorization', `Bearer ${FULL_KEY}`).set('Strapi-Response-Format', 'v4').send({ data });

  test('create with populate', async () => {
    const categories = (await ctx.router.documents('api::category.category').findMany('fields[0]=name')).data.map((c) => c.documentId);
    const res = await send('post', '/api/articles?populate[categories][fields][0]=name&populate[seo]=true', {
      title: 'v4 create', categories: categories.slice(0, 1), seo: { metaTitle: 'meta' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      id: expect.any(Number),
      documentId: expect.any(String),
      attributes: { title: 'v4 create', categories: { data: [{ attributes: { name: expect.any(String) } }] }, seo: { metaTitle: 'meta' } },
    });
    expect(res.body.meta).toEqual({});
  });

  test('update of a collection entry and of a single type', async () => {
    const res = await send('put', `/api/articles/${first}?fields[0]=title`, { title: 'Hello again' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: expect.any(Number), documentId: first, attributes: { title: 'Hello again' } });
    const single = await send('put', '/api/global?populate=favicon', { siteName: 'v4 site' });
    expect(single.status).toBe(200);
    expect(single.body.data.attributes.siteName).toBe('v4 site');
    expect(single.body.data.attributes.favicon.data.attributes.name).toBe('logo.png');
  });

  test('a write error is the usual error body', async () => {
    const res = await send('post', '/api/articles', { nope: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
  });
});
