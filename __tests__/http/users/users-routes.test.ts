import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { memoryEngine } from '../../../lib';
import { expectStrapiError } from '../../helpers/http';
import { bearer, createUsersApp, FULL, READONLY, registerUser, type UsersApp } from './users-helpers';

/** Waits for background work (the reset e-mail is sent after the answer), a bounded number of turns. */
async function until(done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 200 && !done(); turn++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(done()).toBe(true);
}

interface Sent {
  to: string;
  subject: string;
  text: string;
}

describe('users-permissions: the /users, roles and password routes', () => {
  let t: UsersApp;
  const sent: Sent[] = [];
  beforeAll(async () => {
    t = await createUsersApp({
      email: { send: async (e) => void sent.push(e) },
      url: 'http://api.example.com/api',
      register: { allowedFields: ['nickname'] },
      // As a project's src/extensions/users-permissions/content-types/user/schema.json: the plugin's attributes repeated, one added.
      userSchema: { attributes: { username: { type: 'string', minLength: 3, unique: true, configurable: false, required: true }, password: { type: 'password', private: true }, nickname: { type: 'string' } } },
    });
  });

  it('refuses mass assignment in register, accepts the allowed extra fields, and counts users', async () => {
    for (const key of ['role', 'confirmed', 'blocked', 'provider', 'resetPasswordToken']) {
      const res = await request(t.app).post('/api/auth/local/register').send({ username: 'eve', email: 'eve@example.com', password: 'Eve-pass-44', [key]: key === 'role' ? 1 : true });
      expectStrapiError(res, 400, 'ValidationError', `Invalid parameters: ${key}`);
    }
    const ok = await request(t.app).post('/api/auth/local/register').send({ username: 'eve', email: 'Eve@Example.com', password: 'Eve-pass-44', nickname: 'E' });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ username: 'eve', email: 'eve@example.com', nickname: 'E', confirmed: true, blocked: false, provider: 'local' });
    expect((await request(t.app).get('/api/users/count').set(bearer(FULL))).body).toBe(1);
    expectStrapiError(await request(t.app).get('/api/users/count').set(bearer(READONLY)), 403, 'ForbiddenError');
  });

  it('lists, pages, finds, creates, updates and deletes users as Strapi answers them', async () => {
    const roles = (await request(t.app).get('/api/users-permissions/roles').set(bearer(FULL))).body.roles as { id: number; type: string }[];
    const authenticated = roles.find((r) => r.type === 'authenticated')!;
    const created = await request(t.app).post('/api/users').set(bearer(FULL)).send({ username: 'frank', email: 'Frank@example.com', password: 'Frank-pass-7', role: authenticated.id });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'frank', email: 'frank@example.com', confirmed: false, role: { type: 'authenticated', name: 'Authenticated' } });
    expectStrapiError(await request(t.app).post('/api/users').set(bearer(FULL)).send({ username: 'frank', email: 'x@example.com', password: 'x-pass-777', role: authenticated.id }), 400, 'ApplicationError', 'Username already taken');
    expectStrapiError(await request(t.app).post('/api/users').set(bearer(FULL)).send({ username: 'frank2', email: 'FRANK@example.com', password: 'x-pass-777', role: authenticated.id }), 400, 'ApplicationError', 'Email already taken');
    const page = await request(t.app).get('/api/users?sort=username:desc&start=0&limit=1').set(bearer(FULL));
    expect(page.body.map((u: { username: string }) => u.username)).toEqual(['frank']);
    expect((await request(t.app).get(`/api/users/${created.body.id}?populate=role`).set(bearer(READONLY))).body.role).toMatchObject({ type: 'authenticated' });
    expectStrapiError(await request(t.app).put(`/api/users/999999`).set(bearer(FULL)).send({ username: 'x' }), 404, 'NotFoundError', 'User not found');
    expectStrapiError(await request(t.app).put(`/api/users/${created.body.id}`).set(bearer(FULL)).send({ email: 'eve@example.com' }), 400, 'ApplicationError', 'Email already taken');
    const moved = await request(t.app).put(`/api/users/${created.body.id}`).set(bearer(FULL)).send({ password: 'Frank-pass-8' });
    expect(moved.status).toBe(200);
    expect((await request(t.app).post('/api/auth/local').send({ identifier: 'frank', password: 'Frank-pass-8' })).status).toBe(200);
    const gone = await request(t.app).delete(`/api/users/${created.body.id}`).set(bearer(FULL));
    expect(gone.body).toMatchObject({ username: 'frank' });
    expect((await request(t.app).get(`/api/users/${created.body.id}`).set(bearer(FULL))).status).toBe(204);
    expect((await request(t.app).get('/api/users/abc').set(bearer(FULL))).status).toBe(204);
  });

  it('changes a password with the current one, and resets a forgotten one with the e-mailed code', async () => {
    const grace = await registerUser(t.app, 'grace', 'Grace-pass-1');
    const change = (body: object) => request(t.app).post('/api/auth/change-password').set(bearer(grace.jwt)).send(body);
    expectStrapiError(await change({ currentPassword: 'Grace-pass-1', password: 'Grace-pass-1', passwordConfirmation: 'Grace-pass-1' }), 400, 'ValidationError', 'Your new password must be different than your current password');
    expectStrapiError(await change({ currentPassword: 'Grace-pass-1', password: 'x'.repeat(73), passwordConfirmation: 'x'.repeat(73) }), 400, 'ValidationError', 'Password must be less than 73 bytes');
    expect((await change({ currentPassword: 'Grace-pass-1', password: 'Grace-pass-2', passwordConfirmation: 'Grace-pass-2' })).status).toBe(200);
    // An API token has no user: Strapi's 401 from /users/me, its grant notwithstanding.
    expectStrapiError(await request(t.app).get('/api/users/me').set(bearer(FULL)), 401, 'UnauthorizedError');

    expect((await request(t.app).post('/api/auth/forgot-password').send({ email: 'nobody@example.com' })).body).toEqual({ ok: true });
    expect(sent).toHaveLength(0);
    expect((await request(t.app).post('/api/auth/forgot-password').send({ email: 'GRACE@example.com' })).body).toEqual({ ok: true });
    await until(() => sent.length === 1); // stored and sent after the answer (equal work for unknown addresses)
    expect(sent[0]).toMatchObject({ to: 'grace@example.com', subject: 'Reset password' });
    const code = /\?code=([0-9a-f]{128})/.exec(sent[0]!.text)![1]!;
    const reset = (body: object) => request(t.app).post('/api/auth/reset-password').send(body);
    expectStrapiError(await reset({ code, password: 'Grace-pass-3', passwordConfirmation: 'Grace-pass-4' }), 400, 'ValidationError', 'Passwords do not match');
    const ok = await reset({ code, password: 'Grace-pass-3', passwordConfirmation: 'Grace-pass-3' });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ username: 'grace' });
    expectStrapiError(await reset({ code, password: 'Grace-pass-5', passwordConfirmation: 'Grace-pass-5' }), 400, 'ValidationError', 'Incorrect code provided');
    expect((await request(t.app).post('/api/auth/local').send({ identifier: 'grace', password: 'Grace-pass-3' })).status).toBe(200);
  });

  it('confirms e-mail addresses with the code of the confirmation e-mail', async () => {
    const res = await request(t.app).post('/api/users').set(bearer(FULL)).send({ username: 'henry', email: 'henry@example.com', password: 'Henry-pass-1', role: 1 });
    expect(res.body.confirmed).toBe(false);
    const sentBefore = sent.length;
    expect((await request(t.app).post('/api/auth/send-email-confirmation').send({ email: 'henry@example.com' })).body).toEqual({ email: 'henry@example.com', sent: true });
    const mail = sent[sentBefore]!;
    expect(mail).toMatchObject({ to: 'henry@example.com', subject: 'Account confirmation' });
    const url = /(http:\/\/[^\s<]+)\?confirmation=([0-9a-f]{40})/.exec(mail.text)!;
    expect(url[1]).toMatch(/\/api\/auth\/email-confirmation$/);
    const confirm = await request(t.app).get(`/api/auth/email-confirmation?confirmation=${url[2]}`);
    expect({ status: confirm.status, location: confirm.headers.location }).toEqual({ status: 302, location: '/' });
    expect((await request(t.app).get(`/api/users/${res.body.id}`).set(bearer(FULL))).body.confirmed).toBe(true);
    expectStrapiError(await request(t.app).post('/api/auth/send-email-confirmation').send({ email: 'henry@example.com' }), 400, 'ApplicationError', 'Already confirmed');
    expectStrapiError(await request(t.app).get(`/api/auth/email-confirmation?confirmation=${url[2]}`), 400, 'ValidationError', 'Invalid token');
  });

  it('creates, reads, updates and deletes roles; their grants apply to their users at once', async () => {
    const ivy = await registerUser(t.app, 'ivy');
    expectStrapiError(await request(t.app).get('/api/notes/whatever').set(bearer(ivy.jwt)), 404, 'NotFoundError');
    const tree = { 'api::tag': { controllers: { tag: { find: { enabled: true }, findOne: { enabled: true } } } } };
    expect((await request(t.app).post('/api/users-permissions/roles').set(bearer(FULL)).send({ name: 'Tag reader', description: 'reads tags', permissions: tree })).body).toEqual({ ok: true });
    expectStrapiError(await request(t.app).post('/api/users-permissions/roles').set(bearer(FULL)).send({}), 400, 'ValidationError', 'Request body cannot be empty');
    expectStrapiError(await request(t.app).post('/api/users-permissions/roles').set(bearer(FULL)).send({ name: 'Typo', permissions: { 'api::tag': { controllers: { tag: { fnd: { enabled: true } } } } } }), 400, 'ValidationError', 'Unknown action api::tag.tag.fnd');
    const roles = (await request(t.app).get('/api/users-permissions/roles').set(bearer(FULL))).body.roles as { id: number; type: string; name: string; nb_users: number }[];
    const reader = roles.find((r) => r.type === 'tag_reader')!;
    expect(reader).toMatchObject({ name: 'Tag reader', nb_users: 0 });
    const one = (await request(t.app).get(`/api/users-permissions/roles/${reader.id}`).set(bearer(FULL))).body.role;
    expect(one.permissions['api::tag'].controllers.tag).toMatchObject({ find: { enabled: true, policy: '' }, create: { enabled: false, policy: '' } });
    expect(one.permissions['plugin::users-permissions'].controllers.auth.callback).toEqual({ enabled: false, policy: '' });
    expectStrapiError(await request(t.app).get('/api/tags').set(bearer(ivy.jwt)), 403, 'ForbiddenError');
    expect((await request(t.app).put(`/api/users/${ivy.id}`).set(bearer(FULL)).send({ role: reader.id })).body.role).toMatchObject({ type: 'tag_reader' });
    expect((await request(t.app).get('/api/tags').set(bearer(ivy.jwt))).status).toBe(200);
    await request(t.app).put(`/api/users-permissions/roles/${reader.id}`).set(bearer(FULL)).send({ permissions: {} }).expect(200);
    expectStrapiError(await request(t.app).get('/api/tags').set(bearer(ivy.jwt)), 403, 'ForbiddenError');
    const publicRole = roles.find((r) => r.type === 'public')!;
    expectStrapiError(await request(t.app).delete(`/api/users-permissions/roles/${publicRole.id}`).set(bearer(FULL)), 400, 'ApplicationError', 'Cannot delete public role');
    await request(t.app).delete(`/api/users-permissions/roles/${reader.id}`).set(bearer(FULL)).expect(200);
    expect((await request(t.app).get(`/api/users/${ivy.id}?populate=role`).set(bearer(FULL))).body.role).toMatchObject({ type: 'public' });
    expectStrapiError(await request(t.app).get(`/api/users-permissions/roles/${reader.id}`).set(bearer(FULL)), 404, 'NotFoundError', 'Role not found');
    expectStrapiError(await request(t.app).get('/api/users-permissions/roles').set(bearer(ivy.jwt)), 403, 'ForbiddenError');
    const permissions = await request(t.app).get('/api/users-permissions/permissions').set(bearer(FULL));
    expect(permissions.body.permissions['api::note'].controllers.note.find).toEqual({ enabled: false, policy: '' });
  });
});

describe('users-permissions: the rate limit of the auth routes', () => {
  it('answers 429 past the maximum per route family and IP, per e-mail address on register', async () => {
    const t = await createUsersApp({ ratelimit: { interval: 60_000, max: 3 } });
    const login = () => request(t.app).post('/api/auth/local').send({ identifier: 'mallory', password: 'x-x-x-x' });
    for (let i = 0; i < 3; i++) expect((await login()).status).toBe(400);
    expectStrapiError(await login(), 429, 'RateLimitError', 'Too many requests, please try again later.');
    expectStrapiError(await request(t.app).post('/api/auth/local/').send({ identifier: 'a', password: 'b' }), 429, 'RateLimitError');
    // Register counts per address: another address is not locked out by the first one's attempts.
    const register = (email: string) => request(t.app).post('/api/auth/local/register').send({ username: 'x', email, password: '1' });
    for (let i = 0; i < 3; i++) expect((await register('one@example.com')).status).toBe(400);
    expect((await register('one@example.com')).status).toBe(429);
    expect((await register('two@example.com')).status).toBe(400);
    expect(await t.engine.count('up_rate_limits', {})).toBeGreaterThan(0);
  });
});

describe('users-permissions: roles survive a restart', () => {
  it('keeps the grants changed over the API, not the options, once the roles are stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cr-users-restart-'));
    try {
      const file = join(dir, 'content.db');
      const first = await createUsersApp({}, memoryEngine({ file }));
      const jane = await registerUser(first.app, 'jane');
      const roles = (await request(first.app).get('/api/users-permissions/roles').set(bearer(FULL))).body.roles as { id: number; type: string }[];
      const authenticated = roles.find((r) => r.type === 'authenticated')!;
      const tree = { 'api::tag': { controllers: { tag: { find: { enabled: true } } } }, 'plugin::users-permissions': { controllers: { user: { me: { enabled: true } } } } };
      await request(first.app).put(`/api/users-permissions/roles/${authenticated.id}`).set(bearer(FULL)).send({ permissions: tree }).expect(200);
      await first.router.engine.close();
      const second = await createUsersApp({}, memoryEngine({ file }));
      expect((await request(second.app).get('/api/tags').set(bearer(jane.jwt))).status).toBe(200);
      expectStrapiError(await request(second.app).get('/api/notes').set(bearer(jane.jwt)), 403, 'ForbiddenError');
      expect((await request(second.app).get('/api/users/me').set(bearer(jane.jwt))).body).toMatchObject({ username: 'jane' });
      await second.router.engine.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('users-permissions: advanced settings', () => {
  it('with e-mail confirmation, register answers no JWT and log-in waits for the confirmation', async () => {
    const sent: Sent[] = [];
    const t = await createUsersApp({ url: 'http://api.example.com/api', advanced: { emailConfirmation: true, emailConfirmationRedirection: 'https://app.example.com/welcome' }, email: { send: async (e) => void sent.push(e) } });
    const res = await request(t.app).post('/api/auth/local/register').send({ username: 'kim', email: 'kim@example.com', password: 'Kim-pass-1' });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('jwt');
    expect(res.body.user).toMatchObject({ username: 'kim', confirmed: false });
    expectStrapiError(await request(t.app).post('/api/auth/local').send({ identifier: 'kim', password: 'Kim-pass-1' }), 400, 'ApplicationError', 'Your account email is not confirmed');
    const code = /\?confirmation=([0-9a-f]{40})/.exec(sent[0]!.text)![1]!;
    const confirmed = await request(t.app).get(`/api/auth/email-confirmation?confirmation=${code}`);
    expect(confirmed.headers.location).toBe('https://app.example.com/welcome');
    expect((await request(t.app).post('/api/auth/local').send({ identifier: 'kim', password: 'Kim-pass-1' })).status).toBe(200);
  });

  it('refuses registrations when allowRegister is false, and a JWT user may not use the anonymous routes', async () => {
    const t = await createUsersApp({ advanced: { allowRegister: false } });
    expectStrapiError(await request(t.app).post('/api/auth/local/register').send({ username: 'lee', email: 'lee@example.com', password: 'Lee-pass-1' }), 400, 'ApplicationError', 'Register action is currently disabled');
    const created = await request(t.app).post('/api/users').set(bearer(FULL)).send({ username: 'lee', email: 'lee@example.com', password: 'Lee-pass-1', role: 1 });
    const login = await request(t.app).post('/api/auth/local').send({ identifier: 'lee@example.com', password: 'Lee-pass-1' });
    expect({ created: created.status, login: login.status }).toEqual({ created: 201, login: 200 });
    // The Authenticated role has no auth.callback (Strapi's defaults): 403, as in Strapi.
    expectStrapiError(await request(t.app).post('/api/auth/local').set(bearer(login.body.jwt as string)).send({ identifier: 'lee', password: 'Lee-pass-1' }), 403, 'ForbiddenError');
  });
});
