import sharp from 'sharp';
import request from 'supertest';
import {
  createBlogAuthApp, CUSTOM_KEY, CUSTOM_PERMISSIONS, EXPIRED_KEY, FULL_KEY, HASHED_KEY, HASHED_PERMISSIONS, READ_KEY,
  type BlogAuthApp,
} from './blog-auth-app';
import { loadBlogModel } from '../../../examples/blog/model';

/** Who calls: the Authorization header sent and the actions it should grant (null: 401 everywhere). */
interface Caller {
  name: string;
  header?: string;
  allows: ((action: string) => boolean) | null;
}

const PUBLIC_ACTIONS = loadBlogModel().permissions.public.actions;
const isPublic = (a: string): boolean => PUBLIC_ACTIONS.includes(a);

const CALLERS: Caller[] = [
  { name: 'public (no header)', allows: isPublic },
  { name: 'full-access token', header: `Bearer ${FULL_KEY}`, allows: () => true },
  { name: 'read-only token', header: `Bearer ${READ_KEY}`, allows: (a) => a.endsWith('.find') || a.endsWith('.findOne') },
  { name: 'custom token', header: `Bearer ${CUSTOM_KEY}`, allows: (a) => CUSTOM_PERMISSIONS.includes(a) },
  { name: 'hash-only token', header: `Bearer ${HASHED_KEY}`, allows: (a) => HASHED_PERMISSIONS.includes(a) },
  { name: 'expired token', header: `Bearer ${EXPIRED_KEY}`, allows: null },
  { name: 'unknown token', header: 'Bearer not-a-configured-token', allows: null },
  { name: 'malformed "Token abc"', header: 'Token abc', allows: isPublic },
  { name: 'malformed "Bearer "', header: 'Bearer ', allows: isPublic },
  { name: 'malformed "Bearer a b"', header: `Bearer ${FULL_KEY} extra`, allows: isPublic },
  { name: 'malformed bare token', header: FULL_KEY, allows: isPublic },
  { name: 'malformed "Basic"', header: 'Basic dXNlcjpwYXNz', allows: isPublic },
  { name: 'lower-case scheme', header: `bearer ${READ_KEY}`, allows: (a) => a.endsWith('.find') || a.endsWith('.findOne') },
];

type Method = 'get' | 'post' | 'put' | 'delete';

/** One route of the matrix: the action it needs, how to call it, the status when allowed. */
interface Route {
  action: string;
  label: string;
  ok: number;
  /** Prepares state (a fresh document or file) and returns the request to send. */
  prepare(ctx: BlogAuthApp): Promise<{ method: Method; path: string; body?: unknown; file?: Buffer }>;
}

let counter = 0;
const next = (): number => (counter += 1);

const COLLECTIONS = [
  { uid: 'api::article.article', plural: 'articles', data: () => ({ title: `Matrix ${next()}` }) },
  { uid: 'api::author.author', plural: 'authors', data: () => ({ name: 'Matrix', email: `m${next()}@example.com` }) },
  { uid: 'api::category.category', plural: 'categories', data: () => ({ name: `Matrix ${next()}` }) },
];
const SINGLES = [
  { uid: 'api::global.global', singular: 'global', data: () => ({ siteName: `Matrix ${next()}` }) },
  { uid: 'api::about.about', singular: 'about', data: () => ({ title: `Matrix ${next()}` }) },
];

const fresh = async (ctx: BlogAuthApp, uid: string, data: Record<string, unknown>): Promise<string> =>
  (await ctx.router.documents(uid).create(data)).documentId as string;

const ensureSingle = async (ctx: BlogAuthApp, uid: string, data: Record<string, unknown>): Promise<void> => {
  if (!(await ctx.router.documents(uid).findFirst())) await ctx.router.documents(uid).create(data);
};

let png: Buffer;
const uploadFile = async (ctx: BlogAuthApp): Promise<number> => {
  const res = await request(ctx.app).post('/api/upload').set('authorization', `Bearer ${FULL_KEY}`).attach('files', png, 'm.png');
  expect(res.status).toBe(201);
  return (res.body as { id: number }[])[0]!.id;
};

const ROUTES: Route[] = [
  ...COLLECTIONS.flatMap(({ uid, plural, data }): Route[] => [
    { action: `${uid}.find`, label: `GET /api/${plural}`, ok: 200, prepare: async () => ({ method: 'get', path: `/api/${plural}` }) },
    {
      action: `${uid}.findOne`, label: `GET /api/${plural}/:id`, ok: 200,
      prepare: async (ctx) => ({ method: 'get', path: `/api/${plural}/${await fresh(ctx, uid, data())}` }),
    },
    { action: `${uid}.create`, label: `POST /api/${plural}`, ok: 201, prepare: async () => ({ method: 'post', path: `/api/${plural}`, body: { data: data() } }) },
    {
      action: `${uid}.update`, label: `PUT /api/${plural}/:id`, ok: 200,
      prepare: async (ctx) => ({ method: 'put', path: `/api/${plural}/${await fresh(ctx, uid, data())}`, body: { data: data() } }),
    },
    {
      action: `${uid}.delete`, label: `DELETE /api/${plural}/:id`, ok: 204,
      prepare: async (ctx) => ({ method: 'delete', path: `/api/${plural}/${await fresh(ctx, uid, data())}` }),
    },
  ]),
  ...SINGLES.flatMap(({ uid, singular, data }): Route[] => [
    {
      action: `${uid}.find`, label: `GET /api/${singular}`, ok: 200,
      prepare: async (ctx) => (await ensureSingle(ctx, uid, data()), { method: 'get', path: `/api/${singular}` }),
    },
    { action: `${uid}.update`, label: `PUT /api/${singular}`, ok: 200, prepare: async () => ({ method: 'put', path: `/api/${singular}`, body: { data: data() } }) },
    {
      action: `${uid}.delete`, label: `DELETE /api/${singular}`, ok: 204,
      prepare: async (ctx) => (await ensureSingle(ctx, uid, data()), { method: 'delete', path: `/api/${singular}` }),
    },
  ]),
  { action: 'plugin::upload.content-api.find', label: 'GET /api/upload/files', ok: 200, prepare: async () => ({ method: 'get', path: '/api/upload/files' }) },
  {
    action: 'plugin::upload.content-api.findOne', label: 'GET /api/upload/files/:id', ok: 200,
    prepare: async (ctx) => ({ method: 'get', path: `/api/upload/files/${await uploadFile(ctx)}` }),
  },
  { action: 'plugin::upload.content-api.upload', label: 'POST /api/upload', ok: 201, prepare: async () => ({ method: 'post', path: '/api/upload', file: png }) },
  {
    action: 'plugin::upload.content-api.destroy', label: 'DELETE /api/upload/files/:id', ok: 200,
    prepare: async (ctx) => ({ method: 'delete', path: `/api/upload/files/${await uploadFile(ctx)}` }),
  },
];

let ctx: BlogAuthApp;
beforeAll(async () => {
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } }).png().toBuffer();
  ctx = await createBlogAuthApp();
});
afterAll(() => ctx.close());

const expected = (caller: Caller, route: Route): number => {
  if (caller.allows === null) return 401;
  return caller.allows(route.action) ? route.ok : 403;
};

const CASES = CALLERS.flatMap((caller) => ROUTES.map((route) => ({ caller, route, status: expected(caller, route) })));

describe('token x route x permission matrix', () => {
  test.each(CASES.map((c) => [c.caller.name, c.route.label, c.status, c] as const))('%s: %s -> %i', async (_c, _r, status, { caller, route }) => {
    const call = await route.prepare(ctx);
    let req = request(ctx.app)[call.method](call.path);
    if (caller.header !== undefined) req = req.set('authorization', caller.header);
    if (call.file) req = req.attach('files', call.file, 'x.png');
    else if (call.body !== undefined) req = req.send(call.body as object);
    const res = await req;
    expect(res.status).toBe(status);
    if (status === 401) {
      expect(res.body).toEqual({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } });
    } else if (status === 403) {
      expect(res.body).toEqual({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
    } else if (status === 204) {
      expect(res.text).toBe('');
    } else {
      expect(res.body).not.toHaveProperty('error');
    }
  });
});

describe('denied requests change nothing', () => {
  test('a read-only token cannot delete: the document is still there', async () => {
    const id = await fresh(ctx, 'api::category.category', { name: `Keep ${next()}` });
    const res = await request(ctx.app).delete(`/api/categories/${id}`).set('authorization', `Bearer ${READ_KEY}`);
    expect(res.status).toBe(403);
    expect(await ctx.router.documents('api::category.category').findOne(id)).not.toBeNull();
  });

  test('the public cannot update the global single type', async () => {
    await ensureSingle(ctx, 'api::global.global', { siteName: 'Before' });
    const before = await ctx.router.documents('api::global.global').findFirst();
    const res = await request(ctx.app).put('/api/global').send({ data: { siteName: 'hack' } });
    expect(res.status).toBe(403);
    expect((await ctx.router.documents('api::global.global').findFirst())!.siteName).toBe(before!.siteName);
  });

  test('a forbidden upload stores no file', async () => {
    const before = (await request(ctx.app).get('/api/upload/files').set('authorization', `Bearer ${FULL_KEY}`)).body as unknown[];
    const res = await request(ctx.app).post('/api/upload').set('authorization', `Bearer ${READ_KEY}`).attach('files', png, 'no.png');
    expect(res.status).toBe(403);
    const after = (await request(ctx.app).get('/api/upload/files').set('authorization', `Bearer ${FULL_KEY}`)).body as unknown[];
    expect(after).toHaveLength(before.length);
  });

  test('an invalid body from a caller without permission is a 403, not a 400', async () => {
    const res = await request(ctx.app).post('/api/articles').send({ nope: true });
    expect(res.status).toBe(403);
  });
});
