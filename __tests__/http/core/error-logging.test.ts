import request from 'supertest';
import type { ContentRouterOptions, ErrorContext } from '../../../lib';
import { failingEngine } from '../../helpers/failing-engine';
import { httpContentTypes } from '../../fixtures/http-model';
import { everyActionPublic } from '../../helpers/every-action';
import { createTestApp, expectNoStack } from '../../helpers/http';
import { testEngine } from '../../helpers/test-engine';

/**
 * Unexpected errors (answered 500) are seen: written with console.error by default, as Express's own final
 * handler logs them (silent when the app's env is 'test'), or handed to the host's `onError` with the request's
 * context. The client's answer is the bare 500 envelope either way; client errors (4xx) are not reported; a
 * failing `onError` never reaches the request.
 */
const BARE_500 = { data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } };
const TOKEN = 'Bearer tok_live_5ecret';
const BODY_SECRET = 'body-5ecret';

/**
 * An app whose `makers` reads fail with `engine down` and whose `makers` creates fail in a lifecycle hook; every
 * action is public, and TOKEN is the full-access API token `ci`.
 */
async function failingApp(overrides: Partial<ContentRouterOptions> = {}, env = 'development') {
  const failing = failingEngine(testEngine());
  const t = await createTestApp({
    engine: failing.engine,
    auth: { ...everyActionPublic(httpContentTypes), apiTokens: [{ name: 'ci', type: 'full-access', accessKey: TOKEN.slice('Bearer '.length) }] },
    lifecycles: { 'api::maker.maker': { beforeCreate: () => { throw new TypeError('hook bug'); } } },
    ...overrides,
  });
  t.app.set('env', env);
  failing.failReads('makers', new Error('engine down'));
  return t;
}

let errors: jest.SpyInstance;
beforeEach(() => {
  errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => errors.mockRestore());

const logged = (): string => errors.mock.calls.map((c) => c.map(String).join(' ')).join('\n');

describe('by default: console.error, as Express logs errors', () => {
  it('a failing read: one line with method, path, request id and caller, then the stack; no token, no query', async () => {
    const { app } = await failingApp();
    const res = await request(app).get('/api/makers?filters[title][$eq]=query-5ecret').set('Authorization', TOKEN).set('X-Request-Id', 'req-42');
    expect(res.status).toBe(500);
    expect(res.body).toEqual(BARE_500);
    expectNoStack(res);
    expect(errors).toHaveBeenCalledTimes(1);
    const line = logged();
    expect(line).toMatch(/^content-router: unexpected error, answered 500: GET \/api\/makers \(request id req-42, caller api-token:ci\)\nError: engine down\n\s+at /);
    expect(line).not.toContain('5ecret');
  });

  it('a failing write: the content type is named, the body is not', async () => {
    const { app } = await failingApp();
    const res = await request(app).post('/api/makers').set('Authorization', TOKEN).send({ data: { title: BODY_SECRET } });
    expect(res.body).toEqual(BARE_500);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(logged()).toMatch(/^content-router: unexpected error, answered 500: POST \/api\/makers \(content-type application\/json, caller api-token:ci\)\nTypeError: hook bug\n/);
    expect(logged()).not.toContain('5ecret');
  });

  it('a request id set by the host (req.id, as pino-http does) is used', async () => {
    const { app } = await failingApp();
    const withId = (await import('express')).default();
    withId.set('env', 'production');
    withId.use((req, _res, next) => {
      (req as unknown as { id: number }).id = 7;
      next();
    }, app);
    await request(withId).get('/api/makers');
    expect(logged()).toContain('GET /api/makers (request id 7, caller public)');
  });

  it("an error before the caller is known (a resolve hook that throws): no caller is named", async () => {
    const { app } = await failingApp({ auth: { public: { actions: [] }, resolve: async () => { throw new Error('session store down'); } } });
    expect((await request(app).get('/api/setting')).body).toEqual(BARE_500);
    expect(logged()).toMatch(/^content-router: unexpected error, answered 500: GET \/api\/setting\nError: session store down\n/);
  });

  it('with auth, the caller is the API token or the public role', async () => {
    const { app } = await failingApp({ auth: { apiTokens: [{ name: 'front', type: 'read-only', accessKey: 'k'.repeat(32) }], public: { actions: ['api::maker.maker.find'] } } });
    await request(app).get('/api/makers').set('Authorization', `Bearer ${'k'.repeat(32)}`);
    await request(app).get('/api/makers');
    expect(errors.mock.calls.map((c) => /\(caller ([^)]*)\)/.exec(String(c[0]))?.[1])).toEqual(['api-token:front', 'public']);
    expect(logged()).not.toContain('k'.repeat(32));
  });

  it('client errors (4xx) are not logged', async () => {
    const { app } = await failingApp();
    const answers = await Promise.all([
      request(app).get('/api/nope'),
      request(app).get('/api/setting?filters[nope][$eq]=1'),
      request(app).post('/api/setting').send('{bad'),
      request(app).put('/api/setting').send({ data: { nope: 1 } }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([404, 400, 405, 400]);
    expect(errors).not.toHaveBeenCalled();
  });

  it("nothing is written when the app's env is 'test' (Express's rule)", async () => {
    const { app } = await failingApp({}, 'test');
    expect((await request(app).get('/api/makers')).body).toEqual(BARE_500);
    expect(errors).not.toHaveBeenCalled();
  });
});

describe('options.onError', () => {
  it('receives the error and the request context instead of console.error', async () => {
    const calls: [unknown, ErrorContext][] = [];
    const { app } = await failingApp({ onError: (error, context) => void calls.push([error, context]) });
    const res = await request(app).put('/api/setting').set('Authorization', TOKEN).set('X-Request-Id', 'abc').send({ data: { siteName: 'x' } });
    expect(res.status).toBe(200); // reads of settings work
    await request(app).get('/api/makers/doc0001?populate=*').set('Authorization', TOKEN).set('X-Request-Id', 'abc');
    expect(errors).not.toHaveBeenCalled();
    expect(calls).toHaveLength(1);
    const [error, context] = calls[0]!;
    expect(error).toEqual(new Error('engine down'));
    expect(context).toEqual({ status: 500, method: 'GET', path: '/api/makers/doc0001', requestId: 'abc', subject: 'api-token:ci', request: expect.anything() });
    expect(context.request.headers['x-request-id']).toBe('abc');
  });

  it('a throwing onError: the client still gets the bare 500, console.error gets both errors', async () => {
    const { app } = await failingApp({ onError: () => { throw new Error('logger broken'); } });
    const res = await request(app).get('/api/makers');
    expect(res.body).toEqual(BARE_500);
    expect(logged()).toMatch(/unexpected error, answered 500: GET \/api\/makers[^]*Error: engine down[^]*content-router: options\.onError failed: Error: logger broken/);
    expect((await request(app).get('/api/setting')).status).not.toBe(500); // the app goes on
  });

  it('a rejecting onError: logged the same way, no unhandled rejection', async () => {
    let seen!: () => void;
    const written = new Promise<void>((resolve) => (seen = resolve));
    errors.mockImplementation((...args: unknown[]) => {
      if (String(args[0]).includes('onError failed')) seen();
    });
    const { app } = await failingApp({ onError: async () => Promise.reject(new Error('logger offline')) });
    expect((await request(app).get('/api/makers')).body).toEqual(BARE_500);
    await written;
    expect(logged()).toContain('content-router: options.onError failed: Error: logger offline');
  });

  it.each([['a string', 'log'], ['an object', {}]])('is validated: %s is refused', async (_label, onError) => {
    await expect(createTestApp({ onError: onError as never })).rejects.toThrow('CR_INVALID_OPTIONS: options.onError must be a function');
  });
});
