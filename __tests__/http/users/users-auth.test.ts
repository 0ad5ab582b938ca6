import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createContentRouter, memoryEngine } from '../../../lib';
import { expectStrapiError } from '../../helpers/http';
import { bearer, createUsersApp, FULL, JWT_SECRET, noteType, registerUser, type UsersApp } from './users-helpers';

/**
 * Bcrypt hashes made by another program (Python's crypt, libxcrypt), of the password `Imported-pass-9`:
 * `crypt.crypt(pw, '$2a$10$abcdefghijklmnopqrstuu')` and likewise for `$2b$12$` and `$2y$10$`.
 */
const IMPORTED = {
  a: '$2a$10$abcdefghijklmnopqrstuuQiE8V.L50syN2uJ.ezRZ13Q6og1wVPq',
  b: '$2b$12$SOs.b4EwSIzfTRVvc2UrpeMUEydMwVO7luSZmJn5U7JbxukUfpPou',
  y: '$2y$10$ABCDEFGHIJKLMNOPQRSTUuThtL3nDWP2YQuia5xm89oEFBXvypzbO',
};

describe('users-permissions: logging in and JWTs', () => {
  let t: UsersApp;
  let alice: { jwt: string; id: number; documentId: string };
  beforeAll(async () => {
    t = await createUsersApp();
    alice = await registerUser(t.app, 'alice');
  });

  it('logs in users imported with bcrypt hashes made by another program ($2a$, $2b$, $2y$)', async () => {
    const [role] = await t.engine.find('up_roles', { type: 'authenticated' });
    let id = 1000;
    for (const [kind, hash] of Object.entries(IMPORTED)) {
      const at = new Date().toISOString();
      await t.engine.insertMany('up_users', [{ id: ++id, documentId: `imported-${kind}`, locale: null, createdAt: at, updatedAt: at, publishedAt: at, _status: 'published', username: `imported-${kind}`, email: `${kind}@imported.test`, provider: 'local', password: hash, confirmed: true, blocked: false, role: role!.documentId, resetPasswordToken: null, confirmationToken: null }]);
      const ok = await request(t.app).post('/api/auth/local').send({ identifier: `${kind}@imported.test`, password: 'Imported-pass-9' });
      expect({ kind, status: ok.status, user: ok.body.user?.username }).toEqual({ kind, status: 200, user: `imported-${kind}` });
      const me = await request(t.app).get('/api/users/me').set(bearer(ok.body.jwt as string));
      expect(me.body).toMatchObject({ id, username: `imported-${kind}` });
      const wrong = await request(t.app).post('/api/auth/local').send({ identifier: `imported-${kind}`, password: 'Imported-pass-8' });
      expectStrapiError(wrong, 400, 'ValidationError', 'Invalid identifier or password');
    }
  });

  it('issues HS256 JWTs of { id, iat, exp } expiring after 30 days, as Strapi', async () => {
    const decoded = jwt.decode(alice.jwt, { complete: true })!;
    expect(decoded.header).toEqual({ alg: 'HS256', typ: 'JWT' });
    const payload = decoded.payload as { id: number; iat: number; exp: number };
    expect(payload).toEqual({ id: alice.id, iat: expect.any(Number), exp: expect.any(Number) });
    expect(payload.exp - payload.iat).toBe(30 * 24 * 3600);
  });

  it('refuses forged, alg:none, expired, tampered and other-algorithm tokens with 401', async () => {
    const none = jwt.sign({ id: alice.id }, '', { algorithm: 'none' });
    const otherSecret = jwt.sign({ id: alice.id }, 'not-the-secret');
    const expired = jwt.sign({ id: alice.id, exp: Math.floor(Date.now() / 1000) - 10 }, JWT_SECRET);
    const hs512 = jwt.sign({ id: alice.id }, JWT_SECRET, { algorithm: 'HS512' });
    const [h, p, s] = alice.jwt.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ id: 999, iat: 1, exp: 9999999999 })).toString('base64url')}.${s}`;
    const noneHeader = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`;
    for (const token of [none, otherSecret, expired, hs512, tampered, noneHeader, 'not.a.jwt', `${alice.jwt}x`]) {
      expectStrapiError(await request(t.app).get('/api/users/me').set(bearer(token)), 401, 'UnauthorizedError', 'Missing or invalid credentials');
      expectStrapiError(await request(t.app).get('/api/notes').set(bearer(token)), 401, 'UnauthorizedError', 'Missing or invalid credentials');
    }
    // A valid signature of an id no user has: Strapi's "Invalid credentials".
    const ghost = jwt.sign({ id: 987654 }, JWT_SECRET);
    expectStrapiError(await request(t.app).get('/api/users/me').set(bearer(ghost)), 401, 'UnauthorizedError', 'Invalid credentials');
  });

  it('refuses the JWT of a user from the moment it is blocked or deleted', async () => {
    const bob = await registerUser(t.app, 'bob');
    expect((await request(t.app).get('/api/users/me').set(bearer(bob.jwt))).status).toBe(200);
    expect((await request(t.app).put(`/api/users/${bob.id}`).set(bearer(FULL)).send({ blocked: true })).status).toBe(200);
    expectStrapiError(await request(t.app).get('/api/users/me').set(bearer(bob.jwt)), 401, 'UnauthorizedError', 'Invalid credentials');
    expectStrapiError(await request(t.app).get('/api/notes').set(bearer(bob.jwt)), 401, 'UnauthorizedError', 'Invalid credentials');
    const carol = await registerUser(t.app, 'carol');
    expect((await request(t.app).delete(`/api/users/${carol.id}`).set(bearer(FULL))).status).toBe(200);
    expectStrapiError(await request(t.app).get('/api/users/me').set(bearer(carol.jwt)), 401, 'UnauthorizedError', 'Invalid credentials');
  });

  it('answers operator objects and arrays in the credentials with a 400, never a login', async () => {
    for (const body of [{ identifier: { $ne: null }, password: 'x' }, { identifier: 'alice', password: { $gt: '' } }, { identifier: ['alice'], password: 'alice-Pass-1' }, { identifier: { $regex: '.*' }, password: { $ne: 1 } }]) {
      const res = await request(t.app).post('/api/auth/local').send(body);
      expectStrapiError(res, 400, 'ValidationError');
      expect(res.body.error.message).toMatch(/must be a `string` type|errors occurred/);
    }
  });

  it('answers every wrong type of a register body at once, in the order of Strapi\'s yup schema', async () => {
    const res = await request(t.app).post('/api/auth/local/register').send({ password: { b: 2 }, username: ['u'], email: { a: 1 } });
    expectStrapiError(res, 400, 'ValidationError', '3 errors occurred');
    const errors = res.body.error.details.errors as { path: string[]; message: string; value: unknown }[];
    expect(errors.map((e) => [e.path, e.value])).toEqual([[['email'], { a: 1 }], [['username'], ['u']], [['password'], { b: 2 }]]);
    expect(errors.map((e) => e.message.split(' ').slice(0, 6).join(' '))).toEqual(['email must be a `string` type,', 'username must be a `string` type,', 'password must be a `string` type,']);
  });

  it('answers bodies nested 20,000 levels deep with a 400 on every auth route, never a 500 (found by the fuzzer)', async () => {
    const deep = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
    const { app } = await createUsersApp({ ratelimit: false }); // this file's other logins count in the shared limit
    const routes = ['/api/auth/local', '/api/auth/local/register', '/api/auth/forgot-password', '/api/auth/reset-password', '/api/auth/send-email-confirmation'];
    for (const route of routes) {
      const res = await request(app).post(route).set('Content-Type', 'application/json').send(`{"code":${deep(20000)},"password":"x","passwordConfirmation":"x"}`);
      expectStrapiError(res, 400, 'ValidationError');
      expect(res.body.error.message).toMatch(/nested too deeply/);
    }
    const bob = await registerUser(app, 'bob');
    const change = await request(app).post('/api/auth/change-password').set(bearer(bob.jwt)).set('Content-Type', 'application/json').send(`{"password":${deep(20000)}}`);
    expectStrapiError(change, 400, 'ValidationError');
  });

  it('answers an unknown user and a wrong password alike', async () => {
    const unknown = await request(t.app).post('/api/auth/local').send({ identifier: 'nobody-at-all', password: 'alice-Pass-1' });
    const wrong = await request(t.app).post('/api/auth/local').send({ identifier: 'alice', password: 'wrong-password' });
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.status).toBe(wrong.status);
  });

  it('keeps private attributes out of every answer, populate and filter', async () => {
    const texts: string[] = [];
    const note = await request(t.app).post('/api/notes').set(bearer(FULL)).send({ data: { title: 'mine', owner: alice.id } });
    expect(note.status).toBe(201);
    texts.push(note.text);
    texts.push((await request(t.app).get('/api/users/me').set(bearer(alice.jwt))).text);
    texts.push((await request(t.app).get('/api/users?populate=*').set(bearer(FULL))).text);
    texts.push((await request(t.app).get('/api/notes?populate[owner][populate]=*').set(bearer(FULL))).text);
    for (const text of texts) expect(text).not.toMatch(/password|resetPasswordToken|confirmationToken|\$2[aby]\$/);
    const refused = {
      '/api/users?filters[password][$notNull]=true': 'Invalid key password',
      '/api/users?sort=password': 'Invalid key password',
      '/api/users?filters[confirmationToken][$null]=false': 'Invalid key confirmationToken',
      '/api/notes?filters[owner][password][$startsWith]=$2': 'Invalid key password at owner.password',
      '/api/notes?filters[owner][resetPasswordToken][$notNull]=true': 'Invalid key resetPasswordToken at owner.resetPasswordToken',
    };
    for (const [path, message] of Object.entries(refused)) {
      expectStrapiError(await request(t.app).get(path).set(bearer(FULL)), 400, 'ValidationError', message);
    }
    // Selecting a private field is refused too: its value never comes out.
    for (const path of ['/api/users?fields[0]=password', '/api/notes?populate[owner][fields][0]=resetPasswordToken']) {
      const res = await request(t.app).get(path).set(bearer(FULL));
      expectStrapiError(res, 400, 'ValidationError');
      expect(res.text).not.toMatch(/\$2[aby]\$/);
    }
  });

  it('populates and filters content through a relation to users, as the caller may find users', async () => {
    const list = await request(t.app).get(`/api/notes?filters[owner][username][$eq]=alice&populate=owner`).set(bearer(FULL));
    expect(list.body.data).toEqual([expect.objectContaining({ title: 'mine', owner: expect.objectContaining({ id: alice.id, username: 'alice', email: 'alice@example.com' }) })]);
    // The Public role may read notes but not find users: the relation is left out, filtering on it is a 400.
    const pub = await request(t.app).get('/api/notes?populate=owner');
    expect(pub.body.data[0]).not.toHaveProperty('owner');
    expectStrapiError(await request(t.app).get('/api/notes?filters[owner][username][$eq]=alice'), 400, 'ValidationError', 'Invalid key owner');
    // The Authenticated role may find users.
    const own = await request(t.app).get('/api/notes?populate=owner').set(bearer(alice.jwt));
    expect(own.body.data[0].owner).toMatchObject({ username: 'alice' });
  });

  it('says at start-up that users are on, and once that no e-mail sender is configured', async () => {
    const lines: string[] = [];
    const logger = { info: (m: string) => lines.push(`info ${m}`), warn: (m: string) => lines.push(`warn ${m}`), error: (m: string) => lines.push(`error ${m}`) };
    const router = createContentRouter({ contentTypes: [noteType] as never, engine: memoryEngine({ ephemeral: true }), logger, auth: { users: { jwtSecret: 's' } } });
    await router.ready;
    expect(lines).toEqual([
      expect.stringMatching(/^warn users-permissions: no e-mail sender/),
      expect.stringMatching(/^info content-router: ready: .*auth: users-permissions \(register, log in, JWTs\)$/),
    ]);
    await router.engine.close();
  });

  it('refuses to start without a JWT secret, and says how to make one', () => {
    const make = (users: unknown) => () => createContentRouter({ contentTypes: [noteType] as never, logger: false, auth: { users: users as never } });
    expect(make({})).toThrow(/CR_INVALID_OPTIONS: auth\.users\.jwtSecret is required.*openssl rand -base64 32/);
    expect(make({ jwtSecret: '' })).toThrow(/jwtSecret is required/);
    expect(make({ jwtSecret: 's', ratelimit: { max: 0 } })).toThrow(/auth\.users\.ratelimit/);
    expect(make({ jwtSecret: 's', roles: { editor: { actions: ['api::nope.nope.find'] } } })).toThrow(/auth\.users\.roles\.editor\.actions\[0\] names an unknown content type/);
  });
});
