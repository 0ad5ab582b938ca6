import express from 'express';
import request from 'supertest';
import { createContentRouter, type ContentRouter } from '../../../lib';
import { ValidationError } from '../../../lib/errors';
import { strapiProject, strapiProjectCustomFields } from '../../fixtures/strapi-project';
import { everyActionPublic } from '../../helpers/every-action';
import { expectStrapiError } from '../../helpers/http';
import { testEngine } from '../../helpers/test-engine';

/**
 * A Strapi project's schema files as its Content-Type Builder wrote them (__tests__/fixtures/strapi-project):
 * custom fields are served as the type they store; morph relations load, and exactly the requests naming them are
 * a 400 saying why (docs/rest-api.md, "Morph relations: loaded, not served").
 */
let app: express.Express;
let router: ContentRouter;
let warn: jest.SpyInstance;
let kitchenId = '';

beforeAll(async () => {
  warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  const { contentTypes, components } = strapiProject();
  router = createContentRouter({
    contentTypes,
    components,
    customFields: strapiProjectCustomFields,
    engine: testEngine(),
    i18n: { locales: ['en', 'fr'] },
    upload: false,
    auth: everyActionPublic(contentTypes),
  });
  await router.ready;
  app = express().use('/api', router);
  const kitchen = await request(app).post('/api/kitchens').send({ data: { name: 'Main', color: '#ff0000', buttons: [{ text: 'Go', URL: '/go' }] } });
  expect(kitchen.status).toBe(201);
  kitchenId = kitchen.body.data.documentId;
});
afterAll(() => warn.mockRestore());

it('started with one CR_UNKNOWN_SCHEMA_KEYS warning (the displayName keys of the attributes)', () => {
  const codes = warn.mock.calls.map((c) => (c[1] as { code?: string }).code);
  expect(codes).toEqual(['CR_UNKNOWN_SCHEMA_KEYS']);
});

describe('custom fields', () => {
  it('are written, validated, read, filtered and sorted as the type they store', async () => {
    const a = await request(app).post('/api/pages').send({ data: { title: 'A', accent: '#12abef', rating: 4 } });
    const b = await request(app).post('/api/pages').send({ data: { title: 'B', accent: '#000000', rating: 2 } });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data).toMatchObject({ title: 'A', accent: '#12abef', rating: 4, audience: 'everyone' });
    const list = await request(app).get('/api/pages?filters[accent][$eq]=%2312abef&fields[0]=title');
    expect(list.body.data.map((d: { title: string }) => d.title)).toEqual(['A']);
    const sorted = await request(app).get('/api/pages?sort=rating:asc&fields[0]=rating');
    expect(sorted.body.data.map((d: { rating: number }) => d.rating)).toEqual([2, 4]);
  });

  it.each([
    ['the regex of the attribute', { title: 'C', accent: 'red' }, ['accent']],
    ['the max of the attribute', { title: 'C', rating: 9 }, ['rating']],
    ['the stored type', { title: 'C', rating: 'four' }, ['rating']],
  ])('are refused when they break %s', async (_label, data, path) => {
    const res = await request(app).post('/api/pages').send({ data });
    expectStrapiError(res, 400, 'ValidationError');
    expect(res.body.error.details.errors[0].path).toEqual(path);
  });
});

describe('the rest of the project', () => {
  it('serves dynamic zones, components with displayName keys, and the localized single type', async () => {
    const page = await request(app).post('/api/pages?populate=*').send({
      data: { title: 'Home', seo: { metaTitle: 'Home' }, sections: [{ __component: 'dynamic-zone.cta', heading: 'Join', CTAs: [{ text: 'Sign up', variant: 'outline' }] }] },
    });
    expect(page.status).toBe(201);
    expect(page.body.data.sections).toEqual([expect.objectContaining({ __component: 'dynamic-zone.cta', heading: 'Join' })]);
    const global = await request(app).put('/api/global?locale=fr&populate[navbar][populate]=links').send({ data: { siteName: 'Site', navbar: { links: [{ text: 'Accueil' }] } } });
    expect(global.status).toBe(200);
    expect(global.body.data).toMatchObject({ siteName: 'Site', locale: 'fr', navbar: { links: [expect.objectContaining({ text: 'Accueil', variant: 'primary' })] } });
  });
});

describe('morph relations: loaded, not served', () => {
  const morphError = (key: string, relation: string) => `Invalid key ${key}: polymorphic relations (${relation}) are not supported by this API`;

  it('never appear in answers, populate=* included', async () => {
    const kitchen = await request(app).get(`/api/kitchens/${kitchenId}?populate=*`);
    expect(kitchen.status).toBe(200);
    expect(Object.keys(kitchen.body.data).sort()).toEqual(['buttons', 'color', 'createdAt', 'documentId', 'id', 'name', 'page', 'pages', 'publishedAt', 'updatedAt']);
    const pages = await request(app).get('/api/pages?populate=*');
    expect(pages.status).toBe(200);
    for (const p of pages.body.data) expect(p).not.toHaveProperty('kitchens');
  });

  it.each([
    ['populate=everything', '/api/kitchens?populate=everything', 'everything', 'morphToMany', 'populate', 'everything'],
    ['populate[0]=anything', '/api/kitchens?populate[0]=anything', 'anything', 'morphToOne', 'populate', 'anything'],
    ['populate[kitchens]=true', '/api/pages?populate[kitchens]=true', 'kitchens', 'morphMany', 'populate', 'kitchens'],
    ['a populate under a relation', '/api/kitchens?populate[page][populate][kitchens]=true', 'kitchens', 'morphMany', 'populate', 'kitchens'],
    ['filters', '/api/kitchens?filters[everything][id][$eq]=1', 'everything', 'morphToMany', 'filters', null],
    ['filters under a relation', '/api/kitchens?filters[page][kitchens][id][$eq]=1', 'kitchens', 'morphMany', 'filters', 'page'],
    ['sort', '/api/kitchens?sort=anything', 'anything', 'morphToOne', 'sort', null],
    ['fields', '/api/kitchens?fields[0]=everything', 'everything', 'morphToMany', 'fields', null],
  ])('a query naming one is a 400: %s', async (_label, url, key, relation, param, path) => {
    const res = await request(app).get(url);
    expectStrapiError(res, 400, 'ValidationError');
    expect(res.body.error.message).toMatch(new RegExp(`^Invalid key ${key}( at ${path})?: polymorphic relations \\(${relation}\\) are not supported by this API$`));
    expect(res.body.error.details).toEqual({ key, path, source: 'query', param });
  });

  it.each([
    ['a create', 'post', '/api/kitchens', { name: 'x', everything: [{ __type: 'api::page.page', documentId: 'a' }] }, 'everything', 'morphToMany'],
    ['an update', 'put', '', { anything: null }, 'anything', 'morphToOne'],
    ['a create of the other side', 'post', '/api/pages', { title: 'x', kitchens: [] }, 'kitchens', 'morphMany'],
  ] as const)('a body holding one is a 400: %s', async (_label, method, url, data, key, relation) => {
    const res = await request(app)[method](url || `/api/kitchens/${kitchenId}`).send({ data });
    expectStrapiError(res, 400, 'ValidationError', morphError(key, relation));
    expect(res.body.error.details).toEqual({ key, path: key, source: 'body' });
  });

  it('the Document Service refuses them the same way', async () => {
    const kitchens = router.documents('api::kitchen.kitchen');
    await expect(kitchens.create({ data: { name: 'x', everything: [] } })).rejects.toThrow(new ValidationError(morphError('everything', 'morphToMany')));
    await expect(kitchens.findMany({ populate: ['anything'] })).rejects.toThrow(morphError('anything', 'morphToOne'));
  });
});
