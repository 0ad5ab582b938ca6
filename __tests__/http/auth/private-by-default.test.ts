import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { createContentRouter, type AuthOptions, type ContentRouter } from '../../../lib';
import { httpComponents, httpContentTypes } from '../../fixtures/http-model';
import { expectStrapiError } from '../../helpers/http';
import { testEngine } from '../../helpers/test-engine';

/**
 * The spec, section 5: "All content-types are private by default." Without `auth` (or with an empty one) every
 * Content API and upload route answers as Strapi answers a Public role without the permission: 403 ForbiddenError
 * "Forbidden" without a token, 401 UnauthorizedError with one (no token is configured). `{ public: 'all' }` opens
 * everything, with one CR_AUTH_OPEN warning per router.
 */
let dir: string;
const routers: ContentRouter[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'private-default-'));
});
afterAll(async () => {
  await Promise.all(routers.map((r) => r.engine.close()));
  await rm(dir, { recursive: true, force: true });
});

async function appWith(auth: AuthOptions | undefined): Promise<{ app: express.Express; router: ContentRouter; gadget: string }> {
  const router = createContentRouter({
    contentTypes: httpContentTypes, components: httpComponents, engine: testEngine(), auth, upload: { directory: dir },
    i18n: { locales: ['en', 'fr'], defaultLocale: 'en' },
  });
  routers.push(router);
  await router.ready;
  const gadget = (await router.documents('api::gadget.gadget').create({ name: 'stored' })).documentId as string;
  await router.documents('api::setting.setting').upsertSingle({ siteName: 'stored' });
  return { app: express().use('/api', router), router, gadget };
}

/** Every route of a collection type, a single type and the media library, with a body where it takes one. */
function everyRoute(gadget: string): [string, string, object?][] {
  return [
    ['get', '/api/gadgets'],
    ['get', `/api/gadgets/${gadget}`],
    ['get', `/api/gadgets/${gadget}?status=draft`],
    ['post', '/api/gadgets', { data: { name: 'xx' } }],
    ['put', `/api/gadgets/${gadget}`, { data: { name: 'yy' } }],
    ['put', `/api/gadgets/${gadget}?locale=fr`, { data: { name: 'zz' } }],
    ['delete', `/api/gadgets/${gadget}`],
    ['get', '/api/setting'],
    ['put', '/api/setting', { data: { siteName: 'y' } }],
    ['delete', '/api/setting'],
    ['get', '/api/upload/files'],
    ['get', '/api/upload/files/1'],
    ['post', '/api/upload', {}],
    ['delete', '/api/upload/files/1'],
  ];
}

function send(app: express.Express, [method, url, body]: [string, string, object?], authorization?: string): request.Test {
  const agent = request(app);
  const req = method === 'get' ? agent.get(url) : method === 'post' ? agent.post(url) : method === 'put' ? agent.put(url) : agent.delete(url);
  if (authorization) req.set('Authorization', authorization);
  return body ? req.send(body) : req;
}

describe.each<[string, AuthOptions | undefined]>([
  ['without auth', undefined],
  ['with an empty auth', {}],
  ['with an empty Public role', { public: { actions: [] } }],
])('%s nothing is allowed', (_label, auth) => {
  let ctx: Awaited<ReturnType<typeof appWith>>;
  beforeAll(async () => {
    ctx = await appWith(auth);
  });

  it('every route answers 403 Forbidden without a token, and changes nothing', async () => {
    for (const route of everyRoute(ctx.gadget)) {
      const res = await send(ctx.app, route);
      expectStrapiError(res, 403, 'ForbiddenError', 'Forbidden');
      expect(res.body.error.details).toEqual({});
    }
    expect((await ctx.router.documents('api::gadget.gadget').findMany('locale=*&status=draft')).data).toMatchObject([{ name: 'stored', locale: 'en' }]);
    expect(await ctx.router.documents('api::setting.setting').findFirst()).toMatchObject({ siteName: 'stored' });
  });

  it('every route answers 401 with a bearer token (none is configured)', async () => {
    for (const route of everyRoute(ctx.gadget)) {
      expectStrapiError(await send(ctx.app, route, 'Bearer some-token'), 401, 'UnauthorizedError', 'Missing or invalid credentials');
    }
  });
});

describe("auth: { public: 'all' } (local development)", () => {
  let ctx: Awaited<ReturnType<typeof appWith>>;
  let warnings: unknown[][];
  beforeAll(async () => {
    const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      ctx = await appWith({ public: 'all' });
      warnings = spy.mock.calls;
    } finally {
      spy.mockRestore();
    }
  });

  it('warns once at start-up, with a code a host can filter on', () => {
    expect(warnings).toEqual([[expect.stringContaining("auth.public: 'all'"), { type: 'ContentRouterWarning', code: 'CR_AUTH_OPEN' }]]);
  });

  it('opens every route to callers without a token: writes, drafts, deletes and uploads', async () => {
    const created = await send(ctx.app, ['post', '/api/gadgets?status=draft', { data: { name: 'draft' } }]);
    expect(created.status).toBe(201);
    expect((await send(ctx.app, ['get', `/api/gadgets/${created.body.data.documentId}?status=draft`])).body.data.name).toBe('draft');
    expect((await send(ctx.app, ['put', '/api/setting', { data: { siteName: 'open' } }])).status).toBe(200);
    const upload = await request(ctx.app).post('/api/upload').attach('files', Buffer.from('hello'), { filename: 'a.txt', contentType: 'text/plain' });
    expect(upload.status).toBe(201);
    expect((await send(ctx.app, ['delete', `/api/upload/files/${upload.body[0].id}`])).status).toBe(200);
    expect((await send(ctx.app, ['delete', `/api/gadgets/${ctx.gadget}`])).status).toBe(204);
  });

  it('an unknown bearer token is still a 401, as on Strapi public routes', async () => {
    expectStrapiError(await send(ctx.app, ['get', '/api/gadgets'], 'Bearer some-token'), 401, 'UnauthorizedError');
  });
});
