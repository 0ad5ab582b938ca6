import express from 'express';
import request from 'supertest';
import { createContentRouter, memoryEngine, type ContentRouterOptions } from '../../lib';
import { loadBlogModel } from '../../examples/blog/model';
import { everyTypeRegistry } from '../unit/schema/every-type';
import { createOpenApiDocument } from '../../lib/openapi';
import { validateOpenApi } from '../helpers/openapi/validate-openapi';

const TOKEN = 'openapi-test-token-0123456789';

function blogRouter(extra: Partial<ContentRouterOptions> = {}) {
  const { contentTypes, components } = loadBlogModel();
  return createContentRouter({
    contentTypes, components, engine: memoryEngine({ ephemeral: true }), i18n: { locales: ['en', 'fr'] },
    auth: { apiTokens: [{ name: 'ci', type: 'read-only', accessKey: TOKEN }] }, ...extra,
  });
}

describe('router.openapi()', () => {
  it.each([
    ['the blog model', () => blogRouter().openapi()],
    ['the every-type model', () => createOpenApiDocument(everyTypeRegistry(), { maxLimit: 100, upload: true })],
    ['a router without the media library', () => blogRouter({ upload: false }).openapi({ serverUrl: 'https://cms.example.com/api', title: 'Blog', version: '2.0.0' })],
  ])('%s: a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', (_label, build) => {
    const verdict = validateOpenApi(build());
    expect(verdict.errors).toEqual([]);
    expect(verdict).toMatchObject({ valid: true, version: '3.1' });
  });

  it('the validator bites: a document with an operation without responses is refused', () => {
    const doc = blogRouter().openapi() as { paths: Record<string, Record<string, Record<string, unknown>>> };
    doc.paths['/articles']!.get!.responses = 'none';
    expect(validateOpenApi(doc).valid).toBe(false);
  });

  it('gives a new document each time: changing one changes no other', () => {
    const router = blogRouter();
    const first = router.openapi();
    (first.components.schemas.Error as { properties: Record<string, unknown> }).properties.data = { type: 'object' };
    (first.paths['/articles'] as { get: { parameters: { schema: unknown }[] } }).get.parameters[0]!.schema = {};
    expect(router.openapi()).not.toEqual(first);
    expect((router.openapi().components.schemas.Error as { properties: { data: unknown } }).properties.data).toEqual({ type: 'null' });
  });

  it('lists every route of every type, the media library and the locales, with the query parameters', () => {
    const doc = blogRouter().openapi();
    const routes = Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item as object).filter((k) => k !== 'parameters').map((m) => `${m.toUpperCase()} ${p}`));
    expect(routes.sort()).toEqual([
      'DELETE /about', 'DELETE /articles/{documentId}', 'DELETE /authors/{documentId}', 'DELETE /categories/{documentId}', 'DELETE /global', 'DELETE /upload/files/{id}',
      'GET /about', 'GET /articles', 'GET /articles/{documentId}', 'GET /authors', 'GET /authors/{documentId}', 'GET /categories', 'GET /categories/{documentId}', 'GET /content-router/model', 'GET /global', 'GET /i18n/locales', 'GET /upload/files', 'GET /upload/files/{id}',
      'POST /about/actions/discard-draft', 'POST /about/actions/unpublish', 'POST /articles', 'POST /articles/{documentId}/actions/discard-draft', 'POST /articles/{documentId}/actions/unpublish',
      'POST /authors', 'POST /categories', 'POST /upload',
      'PUT /about', 'PUT /articles/{documentId}', 'PUT /authors/{documentId}', 'PUT /categories/{documentId}', 'PUT /global',
    ]);
    const find = (doc.paths['/articles'] as { get: { parameters: { name: string; style?: string }[] } }).get;
    expect(find.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['populate', 'fields', 'filters', 'sort', 'pagination']));
    expect(find.parameters.find((p) => p.name === 'filters')).toMatchObject({ style: 'deepObject' });
    expect(doc.components.securitySchemes).toEqual({ apiToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
  });
});

describe('the openapi option (served document)', () => {
  const app = (openapi: ContentRouterOptions['openapi']) => express().use('/api', blogRouter({ openapi }));

  it('is off by default', async () => {
    await request(app(undefined)).get('/api/openapi.json').set('Authorization', `Bearer ${TOKEN}`).expect(404);
  });
  it('serves API-token callers at /openapi.json under the mount point, the Public role gets a 403', async () => {
    const res = await request(app(true)).get('/api/openapi.json').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    expect(res.body).toMatchObject({ openapi: '3.1.0', servers: [{ url: '/api' }] });
    const denied = await request(app(true)).get('/api/openapi.json').expect(403);
    expect(denied.body).toMatchObject({ data: null, error: { status: 403, name: 'ForbiddenError' } });
  });
  it('public: true serves everyone; path moves it', async () => {
    const res = await request(app({ path: '/docs/openapi.json', public: true, title: 'Blog' })).get('/api/docs/openapi.json').expect(200);
    expect(res.body.info.title).toBe('Blog');
  });
  it.each([
    [{ path: 'openapi.json' }, 'options.openapi'],
    [{ pubic: true }, 'options.openapi.pubic: unknown option (did you mean "public"?)'],
  ])('refuses %j', (openapi, message) => {
    expect(() => blogRouter({ openapi } as never)).toThrow(message);
  });
});
