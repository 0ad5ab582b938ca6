import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createBlogApp } from '../../../examples/blog/app';
import type { Engine } from '../../../lib';
import { expectStrapiError } from '../../helpers/http';
import { mongoTestEngine, testDatabaseUri, testEngine } from '../../helpers/test-engine';
import { bearer, createUsersApp, FULL, JWT_SECRET, type UsersApp } from './users-helpers';

const REFRESH = { jwtManagement: 'refresh' as const };
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

interface Login {
  jwt: string;
  refreshToken: string;
  user: { id: number; documentId: string };
}

async function register(app: UsersApp['app'], name: string, extra: Record<string, unknown> = {}): Promise<Login> {
  const res = await request(app).post('/api/auth/local/register').send({ username: name, email: `${name}@example.com`, password: `${name}-Pass-1`, ...extra });
  if (res.status !== 200) throw new Error(`register ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Login;
}

async function login(app: UsersApp['app'], name: string, body: Record<string, unknown> = {}, userAgent?: string): Promise<Login> {
  const req = request(app).post('/api/auth/local');
  if (userAgent) void req.set('user-agent', userAgent);
  const res = await req.send({ identifier: name, password: `${name}-Pass-1`, ...body });
  if (res.status !== 200) throw new Error(`login ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Login;
}

const me = (app: UsersApp['app'], token: string) => request(app).get('/api/users/me').set(bearer(token));
const refresh = (app: UsersApp['app'], refreshToken: unknown) => request(app).post('/api/auth/refresh').send({ refreshToken });

describe('users-permissions session mode (jwtManagement: refresh)', () => {
  let t: UsersApp;
  beforeAll(async () => {
    // No rate limit here: this file logs in far more than 10 times a minute.
    t = await createUsersApp({ ...REFRESH, ratelimit: false });
  });

  it('answers { jwt, refreshToken, user } with Strapi\'s token formats and lifespans (10 minutes, 14 days idle)', async () => {
    const reg = await register(t.app, 'amber');
    expect(Object.keys(reg).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    const access = jwt.verify(reg.jwt, JWT_SECRET) as Record<string, unknown>;
    expect(access).toEqual({ userId: String(reg.user.id), sessionId: expect.stringMatching(/^[0-9a-f]{32}$/), type: 'access', iat: expect.any(Number), exp: expect.any(Number) });
    expect((access.exp as number) - (access.iat as number)).toBe(600);
    const refreshPayload = jwt.verify(reg.refreshToken, JWT_SECRET) as Record<string, unknown>;
    expect(refreshPayload).toEqual({ userId: String(reg.user.id), sessionId: access.sessionId, type: 'refresh', exp: expect.any(Number) });
    expect(Math.abs((refreshPayload.exp as number) - (access.iat as number) - 14 * 24 * 3600)).toBeLessThanOrEqual(1);
    expect((await me(t.app, reg.jwt)).status).toBe(200);
    // Neither the refresh token nor a legacy { id } JWT is a bearer token in this mode.
    expectStrapiError(await me(t.app, reg.refreshToken), 401, 'UnauthorizedError', 'Missing or invalid credentials');
    expectStrapiError(await me(t.app, jwt.sign({ id: reg.user.id }, JWT_SECRET)), 401, 'UnauthorizedError', 'Missing or invalid credentials');
  });

  it('rotates a refresh token once: the spent one is refused, the new pair works, the access token of the old one still does', async () => {
    const a = await login(t.app, 'amber');
    const r1 = await refresh(t.app, a.refreshToken);
    expect(r1.status).toBe(200);
    expect(r1.headers['cache-control']).toBe('no-store');
    expect(Object.keys(r1.body as object).sort()).toEqual(['jwt', 'refreshToken']);
    expectStrapiError(await refresh(t.app, a.refreshToken), 401, 'UnauthorizedError', 'Invalid refresh token');
    expect((await me(t.app, r1.body.jwt as string)).status).toBe(200);
    expect((await me(t.app, a.jwt)).status).toBe(200); // the login goes on in its rotated session
    expect((await refresh(t.app, r1.body.refreshToken)).status).toBe(200);
  });

  it('spends a refresh token once even when two requests race with it', async () => {
    const a = await login(t.app, 'amber');
    const answers = await Promise.all([refresh(t.app, a.refreshToken), refresh(t.app, a.refreshToken), refresh(t.app, a.refreshToken)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401, 401]);
  });

  it('refuses bad refresh inputs with Strapi\'s errors, never a 500', async () => {
    for (const body of [{}, { refreshToken: 12 }, { refreshToken: '' }, { refreshToken: { $ne: null } }, { refreshToken: ['x'] }]) {
      expectStrapiError(await request(t.app).post('/api/auth/refresh').send(body), 400, 'BadRequestError', 'Missing refresh token');
    }
    expectStrapiError(await request(t.app).post('/api/auth/refresh'), 400, 'BadRequestError', 'Missing refresh token');
    const deep = `{"refreshToken":${'{"a":'.repeat(20000)}1${'}'.repeat(20000)}}`;
    const nested = await request(t.app).post('/api/auth/refresh').set('Content-Type', 'application/json').send(deep);
    expectStrapiError(nested, 400, 'ValidationError');
    expect(nested.body.error.message).toMatch(/nested too deeply/);
    const a = await login(t.app, 'amber');
    const forged = jwt.sign({ userId: String(a.user.id), sessionId: 'f'.repeat(32), type: 'refresh' }, JWT_SECRET);
    const otherSecret = jwt.sign(jwt.decode(a.refreshToken) as object, 'not-the-secret');
    for (const token of ['garbage', 'x'.repeat(200_000), a.jwt, forged, otherSecret, `${a.refreshToken}x`]) {
      expectStrapiError(await refresh(t.app, token), 401, 'UnauthorizedError', 'Invalid refresh token');
    }
  });

  it('ends the access token\'s session on logout, at once (our difference with Strapi: its access token answers 401 too)', async () => {
    const a = await login(t.app, 'amber');
    const other = await login(t.app, 'amber');
    const out = await request(t.app).post('/api/auth/logout').set(bearer(a.jwt));
    expect({ status: out.status, body: out.body }).toEqual({ status: 200, body: { ok: true } });
    expectStrapiError(await me(t.app, a.jwt), 401, 'UnauthorizedError');
    expectStrapiError(await request(t.app).get('/api/notes').set(bearer(a.jwt)), 401, 'UnauthorizedError');
    expectStrapiError(await refresh(t.app, a.refreshToken), 401, 'UnauthorizedError', 'Invalid refresh token');
    expect((await me(t.app, other.jwt)).status).toBe(200); // another login of the same user goes on
  });

  it('logs out a device, the session of a refresh token, or every session (scope: all)', async () => {
    await register(t.app, 'basil');
    const phone = await login(t.app, 'basil', { deviceId: 'basil-phone' });
    const phone2 = await login(t.app, 'basil', { deviceId: 'basil-phone' });
    const laptop = await login(t.app, 'basil', { deviceId: 'basil-laptop' });
    const tablet = await login(t.app, 'basil');
    expect((await request(t.app).post('/api/auth/logout').set(bearer(laptop.jwt)).send({ deviceId: 'basil-phone' })).status).toBe(200);
    for (const s of [phone, phone2]) expect((await me(t.app, s.jwt)).status).toBe(401);
    expect((await me(t.app, laptop.jwt)).status).toBe(200);
    expect((await request(t.app).post('/api/auth/logout').set(bearer(laptop.jwt)).send({ refreshToken: tablet.refreshToken })).status).toBe(200);
    expect((await refresh(t.app, tablet.refreshToken)).status).toBe(401);
    expect((await me(t.app, laptop.jwt)).status).toBe(200); // the caller's own session stays
    expect((await request(t.app).post('/api/auth/logout').set(bearer(laptop.jwt)).send({ scope: 'all' })).status).toBe(200);
    expect((await me(t.app, laptop.jwt)).status).toBe(401);
    expect(await t.engine.count('up_sessions', { userId: String(laptop.user.id) })).toBe(0);
  });

  it('takes a logout deviceId of any length as a filter (nothing stored): it ends no other session', async () => {
    const a = await login(t.app, 'amber');
    const out = await request(t.app).post('/api/auth/logout').set(bearer(a.jwt)).send({ deviceId: 'd'.repeat(5000) });
    expect({ status: out.status, body: out.body }).toEqual({ status: 200, body: { ok: true } });
    expect((await me(t.app, a.jwt)).status).toBe(200);
  });

  it('answers an error, never { ok: true }, when the logout could not be written (unlike Strapi, which logs it)', async () => {
    const inner = testEngine();
    let failing = false;
    const engine = new Proxy(inner, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (key === 'deleteMany') {
          return (collection: string, filter: Record<string, unknown>) =>
            failing && collection === 'up_sessions' ? Promise.reject(new Error('connection reset')) : target.deleteMany(collection, filter);
        }
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const { app } = await createUsersApp({ ...REFRESH, ratelimit: false }, engine);
    const mona = await register(app, 'mona');
    failing = true;
    const out = await request(app).post('/api/auth/logout').set(bearer(mona.jwt));
    expect(out.status).toBe(500);
    expect(out.body).toEqual({ data: null, error: expect.objectContaining({ status: 500 }) });
    failing = false;
    expect((await me(app, mona.jwt)).status).toBe(200); // not logged out, and not told so
  });

  it('lists the caller\'s live sessions, current first, with the device of the login', async () => {
    const reg = await register(t.app, 'cedar');
    const mac = await login(t.app, 'cedar', { deviceId: 'cedar-mac' }, CHROME_MAC);
    const list = await request(t.app).get('/api/auth/sessions').set(bearer(mac.jwt));
    expect(list.status).toBe(200);
    const { sessionId } = jwt.decode(mac.jwt) as { sessionId: string };
    expect(list.body.data).toEqual([
      { id: sessionId, deviceId: 'cedar-mac', deviceName: 'Chrome on macOS', current: true, loginAt: expect.any(String), lastActiveAt: expect.any(String) },
      { id: (jwt.decode(reg.jwt) as { sessionId: string }).sessionId, deviceId: expect.stringMatching(/^[0-9a-f-]{36}$/), current: false, loginAt: expect.any(String), lastActiveAt: expect.any(String) },
    ]);
  });

  it('revokes one of the caller\'s sessions by id, never another user\'s (404 Session not found)', async () => {
    const dana = await register(t.app, 'dana');
    const danaPhone = await login(t.app, 'dana');
    const eli = await register(t.app, 'eli');
    const danaPhoneId = (jwt.decode(danaPhone.jwt) as { sessionId: string }).sessionId;
    expectStrapiError(await request(t.app).delete(`/api/auth/sessions/${danaPhoneId}`).set(bearer(eli.jwt)), 404, 'NotFoundError', 'Session not found');
    expect((await me(t.app, danaPhone.jwt)).status).toBe(200);
    for (const id of ['0123456789abcdef0123456789abcdef', '%7B%22%24ne%22%3Anull%7D', 'x'.repeat(2000)]) {
      expectStrapiError(await request(t.app).delete(`/api/auth/sessions/${id}`).set(bearer(dana.jwt)), 404, 'NotFoundError', 'Session not found');
    }
    const ok = await request(t.app).delete(`/api/auth/sessions/${danaPhoneId}`).set(bearer(dana.jwt));
    expect({ status: ok.status, body: ok.body }).toEqual({ status: 200, body: { data: {} } });
    expect((await me(t.app, danaPhone.jwt)).status).toBe(401);
    expect((await me(t.app, dana.jwt)).status).toBe(200);
  });

  it('ends every session on a password change and answers a new one', async () => {
    const fig = await register(t.app, 'fig');
    const other = await login(t.app, 'fig');
    const res = await request(t.app).post('/api/auth/change-password').set(bearer(fig.jwt)).send({ currentPassword: 'fig-Pass-1', password: 'fig-Pass-2', passwordConfirmation: 'fig-Pass-2' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    for (const s of [fig, other]) {
      expect((await me(t.app, s.jwt)).status).toBe(401);
      expect((await refresh(t.app, s.refreshToken)).status).toBe(401);
    }
    expect((await me(t.app, res.body.jwt as string)).status).toBe(200);
    expect((await refresh(t.app, res.body.refreshToken)).status).toBe(200);
  });

  it('ends every session on a password reset', async () => {
    const gus = await register(t.app, 'gus');
    await t.engine.updateMany('up_users', { id: gus.user.id }, { $set: { resetPasswordToken: 'gus-reset-code' } });
    const res = await request(t.app).post('/api/auth/reset-password').send({ code: 'gus-reset-code', password: 'gus-Pass-2', passwordConfirmation: 'gus-Pass-2' });
    expect(res.status).toBe(200);
    expect(typeof res.body.refreshToken).toBe('string');
    expect((await me(t.app, gus.jwt)).status).toBe(401);
    expect((await refresh(t.app, gus.refreshToken)).status).toBe(401);
    expect((await me(t.app, res.body.jwt as string)).status).toBe(200);
  });

  it('ends a deleted user\'s sessions', async () => {
    const hal = await register(t.app, 'hal');
    expect((await request(t.app).delete(`/api/users/${hal.user.id}`).set(bearer(FULL))).status).toBe(200);
    expectStrapiError(await refresh(t.app, hal.refreshToken), 401, 'UnauthorizedError', 'Invalid refresh token');
    expect(await t.engine.count('up_sessions', { userId: String(hal.user.id) })).toBe(0);
    // A user removed behind the plugin's back (sessions left): its access token is an invalid token, as in Strapi.
    const ida = await register(t.app, 'ida');
    await t.engine.deleteMany('up_users', { id: ida.user.id });
    expectStrapiError(await me(t.app, ida.jwt), 401, 'UnauthorizedError', 'Missing or invalid credentials');
  });

  it('keeps the refresh token in an httpOnly cookie when asked (x-strapi-refresh-cookie: httpOnly), and clears it on logout', async () => {
    const res = await request(t.app).post('/api/auth/local').set('x-strapi-refresh-cookie', 'httpOnly').send({ identifier: 'amber', password: 'amber-Pass-1' });
    expect(res.status).toBe(200);
    expect(res.body.refreshToken).toBeUndefined();
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0]!;
    expect(cookie).toMatch(/^strapi_up_refresh=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax$/);
    const pair = cookie.split(';')[0]!;
    const rotated = await request(t.app).post('/api/auth/refresh').set('cookie', `other=1; ${pair}`).set('x-strapi-refresh-cookie', 'httpOnly');
    expect(rotated.status).toBe(200);
    expect(Object.keys(rotated.body as object)).toEqual(['jwt']);
    const next = (rotated.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
    expect(next).not.toBe(pair);
    expect((await request(t.app).post('/api/auth/refresh').set('cookie', pair)).status).toBe(401);
    const out = await request(t.app).post('/api/auth/logout').set(bearer(rotated.body.jwt as string)).set('cookie', next).set('x-strapi-refresh-cookie', 'httpOnly');
    expect(out.status).toBe(200);
    expect((out.headers['set-cookie'] as unknown as string[])[0]).toMatch(/^strapi_up_refresh=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/);
    expect((await request(t.app).post('/api/auth/refresh').set('cookie', next)).status).toBe(401);
  });

  it('checks each route\'s grant first: the Public role may refresh, not log out or list sessions (403)', async () => {
    expectStrapiError(await request(t.app).post('/api/auth/logout').send({}), 403, 'ForbiddenError', 'Forbidden');
    expectStrapiError(await request(t.app).get('/api/auth/sessions'), 403, 'ForbiddenError', 'Forbidden');
    expectStrapiError(await request(t.app).delete('/api/auth/sessions/abc'), 403, 'ForbiddenError', 'Forbidden');
    // An API token may hold the grant, but has no session of its own.
    expectStrapiError(await request(t.app).get('/api/auth/sessions').set(bearer(FULL)), 401, 'UnauthorizedError', 'Missing authentication');
    const put = await request(t.app).put('/api/auth/refresh');
    expect({ status: put.status, allow: put.headers.allow }).toEqual({ status: 405, allow: 'POST' }); // Koa's router, as Strapi
  });

  it('bounds what it stores: a deviceId over 256 characters is refused, a device name reads 1024 characters of User-Agent', async () => {
    expectStrapiError(await request(t.app).post('/api/auth/local').send({ identifier: 'amber', password: 'amber-Pass-1', deviceId: 'd'.repeat(257) }), 400, 'ValidationError');
    const a = await login(t.app, 'amber', {}, `${CHROME_MAC} ${'x'.repeat(5000)}`);
    const list = await request(t.app).get('/api/auth/sessions').set(bearer(a.jwt));
    expect(list.body.data[0]).toMatchObject({ current: true, deviceName: 'Chrome on macOS' });
    const row = (await t.engine.find('up_sessions', { sessionId: list.body.data[0].id }))[0]!;
    expect(JSON.stringify(row).length).toBeLessThan(600);
  });

  it('lists a session opened by a password change without loginAt or deviceName, as Strapi (no login metadata)', async () => {
    await register(t.app, 'lena');
    const l = await login(t.app, 'lena', {}, CHROME_MAC);
    const res = await request(t.app).post('/api/auth/change-password').set(bearer(l.jwt)).set('user-agent', CHROME_MAC).send({ currentPassword: 'lena-Pass-1', password: 'lena-Pass-2', passwordConfirmation: 'lena-Pass-2' });
    const list = await request(t.app).get('/api/auth/sessions').set(bearer(res.body.jwt as string));
    expect(list.body.data).toEqual([{ id: expect.any(String), deviceId: expect.stringMatching(/^[0-9a-f-]{36}$/), current: true, lastActiveAt: expect.any(String) }]);
  });
});

describe('users-permissions legacy mode (the default): no session routes', () => {
  it('answers 404 to the session routes, after their grant, as Strapi does outside refresh mode', async () => {
    const t = await createUsersApp();
    const reg = await register(t.app, 'ivy');
    expect(Object.keys(reg).sort()).toEqual(['jwt', 'user']);
    expectStrapiError(await request(t.app).post('/api/auth/refresh').send({ refreshToken: 'x' }), 404, 'NotFoundError', 'Not Found');
    expectStrapiError(await request(t.app).post('/api/auth/logout').set(bearer(reg.jwt)), 404, 'NotFoundError', 'Not Found');
    expectStrapiError(await request(t.app).get('/api/auth/sessions').set(bearer(reg.jwt)), 404, 'NotFoundError', 'Not Found');
    expectStrapiError(await request(t.app).delete('/api/auth/sessions/x').set(bearer(reg.jwt)), 404, 'NotFoundError', 'Not Found');
    expectStrapiError(await request(t.app).post('/api/auth/logout'), 403, 'ForbiddenError');
  });
});

/** Two engines on one store: the same memory engine twice, or two connections to one MongoDB database. */
function sharedEngines(): [Engine, Engine] {
  if (!process.env.MONGODB_URI) {
    const engine = testEngine();
    return [engine, engine];
  }
  const uri = testDatabaseUri();
  return [mongoTestEngine(uri), mongoTestEngine(uri)];
}

describe('session mode on two app instances sharing one engine', () => {
  it('sees a logout, a rotation and a password change of one instance at once on the other', async () => {
    const [e1, e2] = sharedEngines();
    const a = await createUsersApp({ ...REFRESH, ratelimit: false }, e1);
    const b = await createUsersApp({ ...REFRESH, ratelimit: false }, e2);
    const jo = await register(a.app, 'joss');
    const other = await login(b.app, 'joss');
    expect((await me(b.app, jo.jwt)).status).toBe(200);
    // Rotated on A: the spent token is refused on B, the new one works there.
    const rotated = await refresh(a.app, jo.refreshToken);
    expect(rotated.status).toBe(200);
    expect((await refresh(b.app, jo.refreshToken)).status).toBe(401);
    // Logged out on A: B refuses the access token and the refresh token at once.
    expect((await request(a.app).post('/api/auth/logout').set(bearer(rotated.body.jwt as string))).status).toBe(200);
    expect((await me(b.app, rotated.body.jwt as string)).status).toBe(401);
    expect((await refresh(b.app, rotated.body.refreshToken)).status).toBe(401);
    // The other login goes on, listed on both; a password change on B ends it on A.
    expect((await request(a.app).get('/api/auth/sessions').set(bearer(other.jwt))).body.data).toHaveLength(1);
    const changed = await request(b.app).post('/api/auth/change-password').set(bearer(other.jwt)).send({ currentPassword: 'joss-Pass-1', password: 'joss-Pass-2', passwordConfirmation: 'joss-Pass-2' });
    expect(changed.status).toBe(200);
    expect((await me(a.app, other.jwt)).status).toBe(401);
    expect((await me(a.app, changed.body.jwt as string)).status).toBe(200);
  });
});

describe('the example app (examples/blog)', () => {
  it.each([
    ['refresh', ['jwt', 'refreshToken', 'user']],
    [undefined, ['jwt', 'user']],
  ])('USERS_SESSIONS=%s: register answers %j', async (env, keys) => {
    const uploadsDir = mkdtempSync(join(tmpdir(), 'cr-sessions-example-'));
    const saved = process.env.USERS_SESSIONS;
    if (env === undefined) delete process.env.USERS_SESSIONS;
    else process.env.USERS_SESSIONS = env;
    try {
      const blog = await createBlogApp({ seed: false, uploadsDir, engine: testEngine() });
      const res = await request(blog.app).post('/api/auth/local/register').send({ username: 'kim', email: 'kim@example.com', password: 'Kim-pass-11' });
      expect({ status: res.status, keys: Object.keys(res.body as object).sort() }).toEqual({ status: 200, keys });
      await blog.close();
    } finally {
      if (saved === undefined) delete process.env.USERS_SESSIONS;
      else process.env.USERS_SESSIONS = saved;
      rmSync(uploadsDir, { recursive: true, force: true });
    }
  });
});
