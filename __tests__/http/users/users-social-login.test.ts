import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { createInterface } from 'node:readline';
import request, { type Response } from 'supertest';
import { createBlogApp } from '../../../examples/blog/app';
import { expectStrapiError } from '../../helpers/http';
import { validateOpenApi } from '../../helpers/openapi/validate-openapi';
import { testEngine } from '../../helpers/test-engine';
import { bearer, createUsersApp, FULL, JWT_SECRET, registerUser, type UsersApp } from './users-helpers';

/**
 * Social login end to end against a real OpenID Connect provider (oidc-provider, in a child process on
 * 127.0.0.1): `/connect/<name>` -> the provider's login and consent -> `/connect/<name>/callback` -> the frontend's
 * callback with `?access_token=` -> `/auth/<name>/callback` answers `{ jwt, user }`. Two providers point at it: `idp`
 * by its issuer (discovery, ID token and nonce) and `plain` by its endpoints (OAuth 2, no discovery).
 */
const CLIENT = { id: 'content-router-test', secret: 'content-router-test-client-secret' };
const SERVER = 'http://localhost:1337';
const FRONTEND = 'http://localhost:3000';
const redirectUri = (name: string): string => `${SERVER}/api/connect/${name}/callback`;

let child: ChildProcess;
let issuer: string;

async function startProvider(): Promise<void> {
  child = spawn(process.execPath, ['__tests__/helpers/oidc-provider-child.mjs'], {
    env: { ...process.env, CLIENT_ID: CLIENT.id, CLIENT_SECRET: CLIENT.secret, REDIRECT_URIS: JSON.stringify([redirectUri('idp'), redirectUri('plain')]) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its start-up warnings (development keys and storage, Node 20) are expected; anything else is shown.
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (!line.startsWith('oidc-provider WARNING')) console.error(line);
  });
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      const m = /^listening (\d+)$/.exec(line);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`oidc-provider child exited with ${code}`)));
  });
  issuer = `http://127.0.0.1:${port}`;
}

function providers(): Record<string, unknown> {
  const common = { key: CLIENT.id, secret: CLIENT.secret, scope: ['openid', 'email', 'profile'] };
  return {
    idp: { ...common, issuer, redirectUri: redirectUri('idp'), callback: `${FRONTEND}/connect/idp/redirect` },
    plain: {
      ...common,
      authorizationEndpoint: `${issuer}/auth`,
      tokenEndpoint: `${issuer}/token`,
      userinfoEndpoint: `${issuer}/me`,
      redirectUri: redirectUri('plain'),
      callback: `${FRONTEND}/connect/plain/redirect`,
    },
    off: { ...common, enabled: false, issuer, redirectUri: redirectUri('off'), callback: `${FRONTEND}/x` },
  };
}

/** The `name=value` of a Set-Cookie answer. */
const cookieOf = (res: Response, name: string): string | undefined => ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${name}=`))?.split(';')[0];

/** A person at the provider: follows its redirects with a cookie jar, logs in as `login` and consents. */
async function atProvider(authorizeUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizeUrl;
  let init: RequestInit = {};
  for (let step = 0; step < 20; step++) {
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    init = {};
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, url);
      if (next.href.startsWith(SERVER)) return next;
      url = next.href;
    } else if (res.status === 200) {
      const action = /action="([^"]+)"/.exec(await res.text())?.[1];
      if (!action) throw new Error(`no login form at ${url}`);
      url = new URL(action, url).href;
      init = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ login }).toString() };
    } else {
      throw new Error(`provider answered ${res.status} at ${url}: ${await res.text()}`);
    }
  }
  throw new Error('too many redirects at the provider');
}

/** `/connect/<name>` -> provider -> `/connect/<name>/callback`: the frontend URL the browser lands on. */
async function connect(t: UsersApp, name: string, login: string, query = ''): Promise<URL> {
  const start = await request(t.app).get(`/api/connect/${name}${query}`);
  expect(start.status).toBe(302);
  const back = await atProvider(start.headers.location as string, login);
  const res = await request(t.app).get(back.pathname + back.search).set('cookie', cookieOf(start, 'cr_connect')!);
  expect(res.status).toBe(302);
  return new URL(res.headers.location as string);
}

/** The whole login: `{ jwt, user }` from `/auth/<name>/callback`. */
async function socialLogin(t: UsersApp, name: string, login: string): Promise<Response> {
  const landed = await connect(t, name, login);
  expect(landed.searchParams.get('error')).toBeNull();
  return request(t.app).get(`/api/auth/${name}/callback${landed.search}`);
}

describe('users-permissions: social login (OAuth 2 / OpenID Connect providers)', () => {
  let t: UsersApp;
  beforeAll(async () => {
    await startProvider();
    // The rate limit (Strapi's, on every social-login route) is tested on its own below.
    t = await createUsersApp({ providers: providers() as never, ratelimit: false });
  });
  afterAll(() => {
    child?.kill();
  });

  it('redirects /connect/<name> to the provider with state, PKCE and a nonce, kept in an HttpOnly cookie', async () => {
    const res = await request(t.app).get('/api/connect/idp');
    expect(res.status).toBe(302);
    const url = new URL(res.headers.location as string);
    expect(url.origin + url.pathname).toBe(`${issuer}/auth`);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({ client_id: CLIENT.id, redirect_uri: redirectUri('idp'), response_type: 'code', scope: 'openid email profile', code_challenge_method: 'S256' });
    expect(q.state).toMatch(/^[\w-]{20,}$/);
    expect(q.nonce).toMatch(/^[\w-]{20,}$/);
    expect(q.code_challenge).toMatch(/^[\w-]{43}$/);
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('cr_connect='))!;
    expect(cookie).toMatch(/; Path=\/api\/connect\/idp;/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toContain(q.state!);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('logs a new member in: a confirmed user of that provider, without a password, answered with a JWT', async () => {
    const res = await socialLogin(t, 'idp', 'alice');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.user).toMatchObject({ username: 'alice', email: 'alice@idp.test', provider: 'idp', confirmed: true, blocked: false });
    expect(res.body.user.password).toBeUndefined();
    const me = await request(t.app).get('/api/users/me').set(bearer(res.body.jwt as string));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: res.body.user.id, username: 'alice', provider: 'idp' });
    const [row] = await t.engine.find('up_users', { email: 'alice@idp.test' });
    expect(row?.password ?? null).toBeNull();
  });

  it('finds the same user at the next login', async () => {
    const first = await socialLogin(t, 'idp', 'bob');
    const second = await socialLogin(t, 'idp', 'bob');
    expect(second.status).toBe(200);
    expect(second.body.user.id).toBe(first.body.user.id);
    expect(await t.engine.count('up_users', { email: 'bob@idp.test' })).toBe(1);
  });

  it('works with a provider given by its endpoints (no discovery, no nonce)', async () => {
    const res = await socialLogin(t, 'plain', 'paula');
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ username: 'paula', email: 'paula@idp.test', provider: 'plain' });
  });

  it('refuses an answer whose state is missing, wrong or without the cookie of the browser that started', async () => {
    const start = await request(t.app).get('/api/connect/idp');
    const back = await atProvider(start.headers.location as string, 'mallory');
    const cookie = cookieOf(start, 'cr_connect')!;
    const other = cookieOf(await request(t.app).get('/api/connect/idp'), 'cr_connect')!;
    const good = back.searchParams.get('state')!;
    const wrongState = new URL(back);
    wrongState.searchParams.set('state', `${good}x`);
    const noState = new URL(back);
    noState.searchParams.delete('state');
    const tampered = `${cookie.slice(0, -3)}abc`;
    for (const [url, jar] of [[back, undefined], [back, other], [back, tampered], [wrongState, cookie], [noState, cookie]] as const) {
      const req = request(t.app).get(url.pathname + url.search);
      const res = jar ? await req.set('cookie', jar) : await req;
      expect(res.status).toBe(302);
      const landed = new URL(res.headers.location as string);
      expect(landed.origin + landed.pathname).toBe(`${FRONTEND}/connect/idp/redirect`);
      expect(Object.fromEntries(landed.searchParams)).toEqual({ error: 'invalid_state' });
    }
    expect(await t.engine.count('up_users', { email: 'mallory@idp.test' })).toBe(0);
  });

  it('sends the provider\'s refusal and an expired login to the frontend, without a token', async () => {
    const denied = await connect(t, 'idp', 'deny');
    expect(denied.origin + denied.pathname).toBe(`${FRONTEND}/connect/idp/redirect`);
    expect(Object.fromEntries(denied.searchParams)).toEqual({ error: 'access_denied' });
    // A login that took more than ten minutes: its cookie (sealed as the router seals it) has expired.
    const start = await request(t.app).get('/api/connect/idp');
    const back = await atProvider(start.headers.location as string, 'slow');
    const key = createHmac('sha256', JWT_SECRET).update('content-router users-permissions connect state').digest();
    const sealed = jwt.decode(cookieOf(start, 'cr_connect')!.slice('cr_connect='.length)) as Record<string, unknown>;
    const expired = jwt.sign({ ...sealed, exp: Math.floor(Date.now() / 1000) - 1 }, key, { algorithm: 'HS256' });
    const res = await request(t.app).get(back.pathname + back.search).set('cookie', `cr_connect=${expired}`);
    expect(Object.fromEntries(new URL(res.headers.location as string).searchParams)).toEqual({ error: 'invalid_state' });
    // The same cookie, unexpired, would have worked: only its age refused it.
    const fresh = jwt.sign({ ...sealed, exp: Math.floor(Date.now() / 1000) + 60 }, key, { algorithm: 'HS256' });
    const ok = await request(t.app).get(back.pathname + back.search).set('cookie', `cr_connect=${fresh}`);
    expect(new URL(ok.headers.location as string).searchParams.get('access_token')).toEqual(expect.any(String));
  });

  it('creates one user when a new member\'s first two logins arrive at once', async () => {
    const tokens = await Promise.all([connect(t, 'idp', 'kate'), connect(t, 'idp', 'kate')]);
    const answers = await Promise.all(tokens.map((landed) => request(t.app).get(`/api/auth/idp/callback${landed.search}`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[0]!.body.user.id).toBe(answers[1]!.body.user.id);
    expect(await t.engine.count('up_users', { email: 'kate@idp.test' })).toBe(1);
  });

  it('never lets a member of a provider log in with a password, even one set by an administrator', async () => {
    const res = await socialLogin(t, 'idp', 'carol');
    expectStrapiError(await request(t.app).post('/api/auth/local').send({ identifier: 'carol@idp.test', password: 'whatever-1' }), 400, 'ValidationError', 'Invalid identifier or password');
    const set = await request(t.app).put(`/api/users/${res.body.user.id}`).set(bearer(FULL)).send({ password: 'Chosen-Pass-1' });
    expect(set.status).toBe(200);
    for (const identifier of ['carol@idp.test', 'carol']) {
      expectStrapiError(await request(t.app).post('/api/auth/local').send({ identifier, password: 'Chosen-Pass-1' }), 400, 'ValidationError', 'Invalid identifier or password');
    }
  });

  it('refuses an address a local user already has (Strapi: "Email is already taken.")', async () => {
    const local = await registerUser(t.app, 'dave');
    await t.engine.updateMany('up_users', { id: local.id }, { $set: { email: 'dave@idp.test' } });
    const res = await socialLogin(t, 'idp', 'dave');
    expectStrapiError(res, 400, 'ApplicationError', 'Email is already taken.');
    expect(await t.engine.count('up_users', { email: 'dave@idp.test' })).toBe(1);
    // And the other way round: the member of one provider is not the member of another.
    await socialLogin(t, 'idp', 'erin');
    expectStrapiError(await socialLogin(t, 'plain', 'erin'), 400, 'ApplicationError', 'Email is already taken.');
  });

  it('refuses an address the provider has not verified, or one longer than an address can be', async () => {
    expectStrapiError(await socialLogin(t, 'idp', 'unverified-frank'), 400, 'ApplicationError', 'Email was not available.');
    expect(await t.engine.count('up_users', { email: 'unverified-frank@idp.test' })).toBe(0);
    const long = 'l'.repeat(250);
    expectStrapiError(await socialLogin(t, 'idp', long), 400, 'ApplicationError', 'Email was not available.');
    expect(await t.engine.count('up_users', { email: `${long}@idp.test` })).toBe(0);
  });

  it('refuses a new member when registering is off, and still lets a known one in', async () => {
    const closed = await createUsersApp({ providers: providers() as never, ratelimit: false });
    const known = await socialLogin(closed, 'idp', 'leo');
    expect(known.status).toBe(200);
    const off = await createUsersApp({ providers: providers() as never, ratelimit: false, advanced: { allowRegister: false } }, closed.engine);
    expectStrapiError(await socialLogin(off, 'idp', 'mia'), 400, 'ApplicationError', 'Register action is actually not available.');
    expect(await off.engine.count('up_users', { email: 'mia@idp.test' })).toBe(0);
    const again = await socialLogin(off, 'idp', 'leo');
    expect({ status: again.status, id: again.body.user?.id }).toEqual({ status: 200, id: known.body.user.id });
  });

  it('opens a session in session mode (jwtManagement: refresh): { jwt, refreshToken, user }, refreshed and logged out as any login', async () => {
    const sessions = await createUsersApp({ providers: providers() as never, ratelimit: false, jwtManagement: 'refresh' });
    const res = await socialLogin(sessions, 'idp', 'nina');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    expect(jwt.verify(res.body.jwt as string, JWT_SECRET)).toMatchObject({ userId: String(res.body.user.id), type: 'access' });
    expect((await request(sessions.app).get('/api/users/me').set(bearer(res.body.jwt as string))).body).toMatchObject({ username: 'nina', provider: 'idp' });
    const rotated = await request(sessions.app).post('/api/auth/refresh').send({ refreshToken: res.body.refreshToken });
    expect(rotated.status).toBe(200);
    const out = await request(sessions.app).post('/api/auth/logout').set(bearer(rotated.body.jwt as string)).send({});
    expect(out.status).toBe(200);
    expectStrapiError(await request(sessions.app).get('/api/users/me').set(bearer(rotated.body.jwt as string)), 401, 'UnauthorizedError');
  });

  it('refuses a blocked member', async () => {
    const res = await socialLogin(t, 'idp', 'grace');
    await t.engine.updateMany('up_users', { id: res.body.user.id }, { $set: { blocked: true } });
    expectStrapiError(await socialLogin(t, 'idp', 'grace'), 400, 'ApplicationError', 'Your account has been blocked by an administrator');
  });

  it('gives a member whose provider username is taken another one', async () => {
    await registerUser(t.app, 'heidi');
    const res = await socialLogin(t, 'idp', 'heidi2');
    expect(res.status).toBe(200);
    await t.engine.updateMany('up_users', { username: 'heidi2' }, { $set: { username: 'heidi3' } });
    await registerUser(t.app, 'heidi2');
    const again = await socialLogin(t, 'idp', 'heidi2');
    expect(again.body.user.username).toBe('heidi3');
    const ivan = await registerUser(t.app, 'ivan');
    await t.engine.updateMany('up_users', { id: ivan.id }, { $set: { email: 'ivan-local@example.com' } });
    const member = await socialLogin(t, 'idp', 'ivan');
    expect(member.status).toBe(200);
    expect(member.body.user.username).toMatch(/^ivan-[0-9a-f]{6}$/);
  });

  it('sends the browser to a ?callback= of the configured origin only', async () => {
    const landed = await connect(t, 'idp', 'judy', `?callback=${encodeURIComponent(`${FRONTEND}/elsewhere?x=1`)}`);
    expect(landed.origin + landed.pathname).toBe(`${FRONTEND}/elsewhere`);
    expect(landed.searchParams.get('x')).toBe('1');
    expect(landed.searchParams.get('access_token')).toEqual(expect.any(String));
    for (const callback of ['https://attacker.example/steal', 'http://localhost:3001/x', '//attacker.example', 'javascript:alert(1)']) {
      const res = await request(t.app).get(`/api/connect/idp?callback=${encodeURIComponent(callback)}`);
      expectStrapiError(res, 400, 'ValidationError', 'Invalid callback URL provided');
    }
  });

  it('answers Strapi\'s errors for unknown and disabled providers, and missing or bad access tokens', async () => {
    for (const path of ['/api/connect/off', '/api/connect/nope', '/api/connect/__proto__', '/api/connect/off/callback', '/api/auth/nope/callback?access_token=x', '/api/auth/off/callback?access_token=x', '/api/auth/local/callback']) {
      expectStrapiError(await request(t.app).get(path), 400, 'ApplicationError', 'This provider is disabled');
    }
    expectStrapiError(await request(t.app).get('/api/auth/idp/callback'), 400, 'ApplicationError', 'No access_token.');
    expectStrapiError(await request(t.app).get('/api/auth/idp/callback?access_token='), 400, 'ApplicationError', 'No access_token.');
    expectStrapiError(await request(t.app).get('/api/auth/idp/callback?access_token=not-a-token'), 400, 'ApplicationError', 'The provider refused the access token');
    expectStrapiError(await request(t.app).get('/api/auth/plain/callback?access_token=not-a-token'), 400, 'ApplicationError', 'The provider refused the access token');
    expectStrapiError(await request(t.app).get(`/api/auth/idp/callback?access_token=${'a'.repeat(5000)}`), 400, 'ValidationError');
    const post = await request(t.app).post('/api/connect/idp');
    expect({ status: post.status, allow: post.headers.allow }).toEqual({ status: 405, allow: 'HEAD, GET' });
  });

  it('answers hostile requests to the three routes with a 4xx or a redirect to the configured frontend, never a 5xx', async () => {
    const big = 'x'.repeat(6000);
    const cookies = ['cr_connect=', 'cr_connect="', 'cr_connect=a.b.c', `cr_connect=${big}`, Array.from({ length: 200 }, (_, i) => `c${i}=v`).join('; '), 'cr_connect=%ZZ; cr_connect=x'];
    const paths = [
      `/api/connect/idp?callback=${big}`, '/api/connect/idp?callback[]=x&callback[a]=y', '/api/connect/%E0%A4%A', `/api/connect/${'p'.repeat(3000)}`,
      `/api/connect/idp/callback?state=${big}&code=${big}`, '/api/connect/idp/callback?state=&code=', '/api/connect/idp/callback?error=access_denied',
      '/api/auth/idp/callback?access_token=%00', '/api/auth/idp/callback?access_token=a&access_token=b', '/api/auth/idp/callback?access_token[$ne]=x',
      '/api/auth/%F0%9F%98%80/callback?access_token=x', '/api/auth/__proto__/callback?access_token=x', '/api/auth/constructor/callback?code=x',
    ];
    for (const path of paths) {
      for (const cookie of [undefined, ...cookies]) {
        const req = request(t.app).get(path);
        const res = cookie ? await req.set('cookie', cookie) : await req;
        expect({ path: path.slice(0, 60), cookie: cookie?.slice(0, 30), status: res.status < 500 }).toEqual({ path: path.slice(0, 60), cookie: cookie?.slice(0, 30), status: true });
        if (res.status === 302 && path.startsWith('/api/connect/idp/callback')) expect(res.headers.location).toMatch(new RegExp(`^${FRONTEND}/connect/idp/redirect\\?error=`));
      }
    }
  });

  it('answers 503 while a provider cannot be reached, and tries again at the next request', async () => {
    const down = { key: CLIENT.id, secret: CLIENT.secret, issuer: 'http://127.0.0.1:1', redirectUri: redirectUri('down'), callback: `${FRONTEND}/x` };
    const app = (await createUsersApp({ providers: { down } as never, ratelimit: false })).app;
    for (let i = 0; i < 2; i++) {
      expectStrapiError(await request(app).get('/api/connect/down'), 503, 'ServiceUnavailableError', 'The provider could not be reached');
      expectStrapiError(await request(app).get('/api/auth/down/callback?access_token=x'), 503, 'ServiceUnavailableError', 'The provider could not be reached');
    }
  });

  it('rate limits the social-login routes as Strapi limits /connect/*', async () => {
    const limited = await createUsersApp({ providers: providers() as never, ratelimit: { interval: 60_000, max: 2 } });
    for (const path of ['/api/connect/idp', '/api/connect/idp/callback?state=x&code=y', '/api/auth/idp/callback?access_token=x']) {
      for (let i = 0; i < 2; i++) expect((await request(limited.app).get(path)).status).not.toBe(429);
      expectStrapiError(await request(limited.app).get(path), 429, 'RateLimitError');
    }
  });

  it('documents the three routes in the OpenAPI document', () => {
    const doc = t.router.openapi() as { paths: Record<string, Record<string, { operationId?: string }>> };
    expect(validateOpenApi(doc).errors).toEqual([]);
    expect(doc.paths['/connect/{provider}']?.get?.operationId).toBe('plugin::users-permissions.auth.connect');
    expect(doc.paths['/connect/{provider}/callback']?.get?.operationId).toBe('plugin::users-permissions.auth.connect.callback');
    expect(doc.paths['/auth/{provider}/callback']?.get?.operationId).toBe('plugin::users-permissions.auth.callback.provider');
    // OpenAPI: "The id MUST be unique among all operations described in the API."
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => (o as { operationId?: string }).operationId)).filter(Boolean);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('the example app turns on the providers whose client id and secret the environment holds, and no others', async () => {
    const names = ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET', 'OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'PUBLIC_URL', 'FRONTEND_URL'];
    const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
    Object.assign(process.env, { GITHUB_CLIENT_ID: 'gh-id', GITHUB_CLIENT_SECRET: 'gh-secret', OIDC_ISSUER: issuer, OIDC_CLIENT_ID: CLIENT.id, OIDC_CLIENT_SECRET: CLIENT.secret, PUBLIC_URL: 'https://api.blog.test/api/', FRONTEND_URL: 'https://blog.test' });
    let blog: Awaited<ReturnType<typeof createBlogApp>>;
    try {
      blog = await createBlogApp({ seed: false, engine: testEngine() });
    } finally {
      for (const n of names) {
        if (saved[n] === undefined) delete process.env[n];
        else process.env[n] = saved[n];
      }
    }
    const github = await request(blog.app).get('/api/connect/github');
    expect(github.status).toBe(302);
    const url = new URL(github.headers.location as string);
    expect(url.origin + url.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ client_id: 'gh-id', redirect_uri: 'https://api.blog.test/api/connect/github/callback', scope: 'user user:email' });
    expect(cookieOf(github, 'cr_connect')).toBeDefined();
    expect(([] as string[]).concat(github.headers['set-cookie'] ?? []).join()).toMatch(/; Secure/);
    const oidc = await request(blog.app).get('/api/connect/oidc');
    expect(new URL(oidc.headers.location as string).origin).toBe(issuer);
    expectStrapiError(await request(blog.app).get('/api/connect/google'), 400, 'ApplicationError', 'This provider is disabled');
    await blog.close();
  });
});
