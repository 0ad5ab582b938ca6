import express from 'express';
import request from 'supertest';
import { createContentRouter, memoryEngine } from '../../../lib';
import { loadBlogModel } from '../../../examples/blog/model';
import { slowStartingEngine } from '../../helpers/failing-engine';
import { blogAuthOptions, createBlogAuthApp, CUSTOM_KEY, FULL_KEY, READ_KEY, type BlogAuthApp } from './blog-auth-app';

/**
 * A shared cache in front of the API (a CDN, a reverse proxy) must never serve one caller's answer to another:
 * every answer varies on `Authorization`, and answers to authenticated callers are `Cache-Control: private`.
 */
const varies = (res: request.Response): string[] => String(res.headers.vary ?? '').split(/\s*,\s*/).map((v) => v.toLowerCase());

describe('caching headers', () => {
  let ctx: BlogAuthApp;
  let app: express.Express;
  beforeAll(async () => {
    const auth = blogAuthOptions();
    // A host app user recognised from a cookie (no Authorization header).
    auth.resolve = async (req) => (req.headers.cookie === 'session=editor' ? { actions: ['api::article.article.find'], subject: 'user:editor' } : null);
    ctx = await createBlogAuthApp(auth, false);
    app = express();
    app.use('/with-host-headers', (_req, res, next) => {
      res.set('Cache-Control', 'no-store');
      res.vary('Origin');
      next();
    }, ctx.router);
    app.use(ctx.app);
  });
  afterAll(() => ctx.close());

  test.each<[string, string, Record<string, string>, number]>([
    ['a read-only token', '/api/articles', { authorization: `Bearer ${READ_KEY}` }, 200],
    ['a full-access token', '/api/authors', { authorization: `Bearer ${FULL_KEY}` }, 200],
    ['a token on the media library', '/api/upload/files', { authorization: `Bearer ${FULL_KEY}` }, 200],
    ['a token on an unknown route', '/api/nothing-here', { authorization: `Bearer ${FULL_KEY}` }, 404],
    ['a token without the permission (403)', '/api/categories', { authorization: `Bearer ${CUSTOM_KEY}` }, 403],
    ['an unknown token (401)', '/api/articles', { authorization: 'Bearer nobody-has-this-token' }, 401],
    ['a malformed Authorization header (answered as public)', '/api/articles', { authorization: 'Token abc' }, 200],
    ['a resolve user recognised from a cookie', '/api/articles', { cookie: 'session=editor' }, 200],
  ])('%s: Vary: Authorization and Cache-Control: private', async (_name, path, headers, status) => {
    const res = await request(app).get(path).set(headers);
    expect(res.status).toBe(status);
    expect(varies(res)).toContain('authorization');
    expect(res.headers['cache-control']).toBe('private');
  });

  test('a write with a token is private too', async () => {
    const res = await request(app).post('/api/categories').set('authorization', `Bearer ${FULL_KEY}`).send({ data: { name: 'Cached?' } });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('private');
  });

  test.each<[string, string, Record<string, string>, number]>([
    ['a public read', '/api/articles', {}, 200],
    ['a public read of a single type', '/api/global', {}, 404],
    ['a public read the role may not do (403)', '/api/authors', {}, 403],
    ['a cookie resolve does not recognise', '/api/articles', { cookie: 'session=nobody' }, 200],
  ])('%s: stays cacheable, keyed on Authorization', async (_name, path, headers, status) => {
    const res = await request(app).get(path).set(headers);
    expect(res.status).toBe(status);
    expect(varies(res)).toContain('authorization');
    expect(res.headers['cache-control']).toBeUndefined();
  });

  test("the host app's own Cache-Control and Vary are kept", async () => {
    const res = await request(app).get('/with-host-headers/articles').set('authorization', `Bearer ${READ_KEY}`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    // The host's Vary first, then the router's: the caller, and Strapi's content source maps header (it changes the bytes).
    expect(varies(res)).toEqual(['origin', 'authorization', 'strapi-encode-source-maps']);
  });
});

describe('caching headers while the engine is starting', () => {
  test('the 503 varies on Authorization, and is private for a token', async () => {
    const model = loadBlogModel();
    const slow = slowStartingEngine(memoryEngine({ ephemeral: true }));
    const router = createContentRouter({ contentTypes: model.contentTypes, components: model.components, engine: slow.engine, auth: blogAuthOptions(), upload: false, readyWaitMS: 1 });
    const app = express().use('/api', router);
    try {
      const anonymous = await request(app).get('/api/articles');
      const withToken = await request(app).get('/api/articles').set('authorization', `Bearer ${READ_KEY}`);
      for (const res of [anonymous, withToken]) {
        expect(res.status).toBe(503);
        expect(varies(res)).toContain('authorization');
      }
      expect([anonymous.headers['cache-control'], withToken.headers['cache-control']]).toEqual([undefined, 'private']);
    } finally {
      slow.start();
      await router.ready;
      await router.engine.close();
    }
  });
});
