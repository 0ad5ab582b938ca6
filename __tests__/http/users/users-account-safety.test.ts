import request from 'supertest';
import { createContentRouter, ConfigurationError, memoryEngine, type Engine } from '../../../lib';
import { expectStrapiError } from '../../helpers/http';
import { testEngine } from '../../helpers/test-engine';
import { bearer, createUsersApp, FULL, registerUser, type UsersApp } from './users-helpers';

// Issue 28 (Medium 3-5, High 2's bounds, Also): e-mail links from the options, escaped HTML, every e-mail route
// rate limited, per-IP register limit, equal work in forgot-password, no-store and Retry-After, bounded inputs.

interface Sent {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Waits for background work (the reset e-mail is sent after the answer), a bounded number of turns. */
async function until(done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 200 && !done(); turn++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(done()).toBe(true);
}

describe('users-permissions: e-mails', () => {
  let t: UsersApp;
  const sent: Sent[] = [];
  beforeAll(async () => {
    t = await createUsersApp({
      url: 'https://api.example.com/api/',
      email: { send: async (e) => void sent.push(e) },
      advanced: { emailResetPassword: 'https://app.example.com/reset?from=mail&lang=en' },
    });
  });

  it('makes the confirmation link from auth.users.url, never from the Host header', async () => {
    const res = await request(t.app).post('/api/users').set(bearer(FULL)).send({ username: 'ivan', email: 'ivan@example.com', password: 'Ivan-pass-1', role: 1 });
    expect(res.status).toBe(201);
    const before = sent.length;
    const asked = await request(t.app).post('/api/auth/send-email-confirmation').set('Host', 'attacker.example/"><h1>x</h1>').send({ email: 'ivan@example.com' });
    expect(asked.body).toEqual({ email: 'ivan@example.com', sent: true });
    const mail = sent[before]!;
    expect(mail.text).toMatch(/https:\/\/api\.example\.com\/api\/auth\/email-confirmation\?confirmation=[0-9a-f]{40}/);
    expect(`${mail.text}${mail.html}`).not.toMatch(/attacker|<h1>/);
  });

  it('escapes the values it puts into the HTML of an e-mail', async () => {
    await registerUser(t.app, 'judy');
    const before = sent.length;
    expect((await request(t.app).post('/api/auth/forgot-password').send({ email: 'judy@example.com' })).body).toEqual({ ok: true });
    await until(() => sent.length > before);
    const mail = sent[before]!;
    expect(mail.html).toContain('https://app.example.com/reset?from=mail&amp;lang=en?code=');
    expect(mail.text).toContain('https://app.example.com/reset?from=mail&lang=en?code=');
  });

  it('rate limits send-email-confirmation (429 with Retry-After)', async () => {
    const ask = () => request(t.app).post('/api/auth/send-email-confirmation').send({ email: 'nobody-here@example.com' });
    for (let i = 0; i < 10; i++) expect((await ask()).status).toBe(200);
    const limited = await ask();
    expectStrapiError(limited, 429, 'RateLimitError');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('sends no confirmation e-mail without auth.users.url (400), rather than a link made from the request', async () => {
    const mails: Sent[] = [];
    const bare = await createUsersApp({ email: { send: async (e) => void mails.push(e) } });
    expect((await request(bare.app).post('/api/users').set(bearer(FULL)).send({ username: 'olga', email: 'olga@example.com', password: 'Olga-pass-1', role: 1 })).status).toBe(201);
    const res = await request(bare.app).post('/api/auth/send-email-confirmation').set('Host', 'attacker.example').send({ email: 'olga@example.com' });
    expectStrapiError(res, 400, 'ApplicationError');
    expect(res.body.error.message).toMatch(/auth\.users\.url/);
    expect(mails).toHaveLength(0);
  });

  it('refuses emailConfirmation without auth.users.url at start-up', () => {
    const build = () =>
      createContentRouter({ contentTypes: [], engine: memoryEngine({ ephemeral: true }), logger: false, auth: { users: { jwtSecret: 'x'.repeat(32), advanced: { emailConfirmation: true }, email: { send: async () => undefined } } } });
    expect(build).toThrow(/CR_INVALID_OPTIONS.*auth\.users\.url/);
  });
});

describe('users-permissions: rate limits and caching', () => {
  it('answers a 429 with Retry-After, the seconds until the window ends', async () => {
    const t = await createUsersApp({ ratelimit: { interval: 30_000, max: 2 } });
    const login = () => request(t.app).post('/api/auth/local').send({ identifier: 'nobody', password: 'Nobody-pass-1' });
    expect([(await login()).status, (await login()).status]).toEqual([400, 400]);
    const limited = await login();
    expectStrapiError(limited, 429, 'RateLimitError');
    const seconds = Number(limited.headers['retry-after']);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(30);
  });

  it('limits register per IP too, whatever the address (maxPerIp, 5 * max by default)', async () => {
    const t = await createUsersApp({ ratelimit: { max: 2 } });
    // Ten new addresses, each answered (the address is not the key here) ...
    for (let i = 0; i < 10; i++) {
      const res = await request(t.app).post('/api/auth/local/register').send({ username: `probe${i}`, email: `probe${i}@example.com` });
      expect(res.status).toBe(400); // no password: validated, but counted
    }
    // ... and the eleventh refused, though its address is new.
    expectStrapiError(await request(t.app).post('/api/auth/local/register').send({ username: 'probe10', email: 'probe10@example.com', password: 'Probe-pass-10' }), 429, 'RateLimitError');
    expect(await t.engine.count('up_users', {})).toBe(0);
  });

  it('answers every JWT with Cache-Control: no-store (register, login, change and reset password)', async () => {
    const sent: Sent[] = [];
    const t = await createUsersApp({ email: { send: async (e) => void sent.push(e) } });
    const register = await request(t.app).post('/api/auth/local/register').send({ username: 'kate', email: 'kate@example.com', password: 'Kate-pass-1' });
    const login = await request(t.app).post('/api/auth/local').send({ identifier: 'kate', password: 'Kate-pass-1' });
    const change = await request(t.app).post('/api/auth/change-password').set(bearer(login.body.jwt as string)).send({ currentPassword: 'Kate-pass-1', password: 'Kate-pass-2', passwordConfirmation: 'Kate-pass-2' });
    await request(t.app).post('/api/auth/forgot-password').send({ email: 'kate@example.com' });
    await until(() => sent.length === 1);
    const code = /\?code=([0-9a-f]{128})/.exec(sent[0]!.text)![1]!;
    const reset = await request(t.app).post('/api/auth/reset-password').send({ code, password: 'Kate-pass-3', passwordConfirmation: 'Kate-pass-3' });
    for (const res of [register, login, change, reset]) {
      expect({ status: res.status, jwt: typeof res.body.jwt, cache: res.headers['cache-control'] }).toEqual({ status: 200, jwt: 'string', cache: 'no-store' });
    }
  });
});

/** The engine, counting the calls of each method (what a request costs, in work, not in time). */
function countingEngine(engine: Engine, calls: string[]): Engine {
  return new Proxy(engine, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('users-permissions: account enumeration', () => {
  it('does the same engine work in forgot-password for a known and an unknown address', async () => {
    const calls: string[] = [];
    // Without the rate limit, whose windows cost what their keys' novelty costs, the same for any address.
    const t = await createUsersApp({ ratelimit: false }, countingEngine(testEngine(), calls));
    await registerUser(t.app, 'leo');
    const work = async (email: string): Promise<string[]> => {
      await new Promise((resolve) => setTimeout(resolve, 50)); // what came before has settled
      calls.length = 0;
      expect((await request(t.app).post('/api/auth/forgot-password').send({ email })).body).toEqual({ ok: true });
      await new Promise((resolve) => setTimeout(resolve, 50)); // and the work after the answer
      return [...calls];
    };
    const known = await work('leo@example.com');
    const unknown = await work('nobody-at-all@example.com');
    expect(known.length).toBeGreaterThan(0);
    expect(unknown).toEqual(known);
    // The token was stored for the known user (the write after the answer).
    const [leo] = await t.engine.find('up_users', { username: 'leo' });
    expect(leo!.resetPasswordToken).toMatch(/^[0-9a-f]{128}$/);
  });
});

describe('users-permissions: bounded inputs', () => {
  let t: UsersApp;
  beforeAll(async () => {
    t = await createUsersApp({ ratelimit: false });
  });

  it('refuses a username or an e-mail longer than 255 characters at register, and stores nothing', async () => {
    const long = await request(t.app).post('/api/auth/local/register').send({ username: 'u'.repeat(256), email: 'max@example.com', password: 'Max-pass-1' });
    expectStrapiError(long, 400, 'ValidationError', 'username must be at most 255 characters');
    expect(long.body.error.details.errors[0]).toEqual({ path: ['username'], message: 'username must be at most 255 characters', name: 'ValidationError' });
    const email = await request(t.app).post('/api/auth/local/register').send({ username: 'max', email: `${'m'.repeat(250)}@example.com`, password: 'Max-pass-1' });
    expectStrapiError(email, 400, 'ValidationError', 'email must be at most 255 characters');
    expect(await t.engine.count('up_users', {})).toBe(0);
    // 255 characters are taken.
    expect((await request(t.app).post('/api/auth/local/register').send({ username: 'u'.repeat(255), email: 'max@example.com', password: 'Max-pass-1' })).status).toBe(200);
  });

  it('answers a login, a reset code or an e-mail too long to exist as Strapi answers an unknown one', async () => {
    expectStrapiError(await request(t.app).post('/api/auth/local').send({ identifier: 'x'.repeat(100_000), password: 'Max-pass-1' }), 400, 'ValidationError', 'Invalid identifier or password');
    expectStrapiError(await request(t.app).post('/api/auth/local').send({ identifier: 'u'.repeat(255), password: 'p'.repeat(100_000) }), 400, 'ValidationError', 'Invalid identifier or password');
    expectStrapiError(await request(t.app).post('/api/auth/reset-password').send({ code: 'c'.repeat(100_000), password: 'Max-pass-2', passwordConfirmation: 'Max-pass-2' }), 400, 'ValidationError', 'Incorrect code provided');
    expectStrapiError(await request(t.app).post('/api/auth/forgot-password').send({ email: `${'f'.repeat(100_000)}@example.com` }), 400, 'ValidationError', 'email must be at most 255 characters');
  });
});

describe('auth.users.jwtSecret strength', () => {
  const build = () =>
    createContentRouter({ contentTypes: [], engine: memoryEngine({ ephemeral: true }), logger: false, auth: { users: { jwtSecret: 'x' } } });
  const withEnv = <T>(value: string, fn: () => T): T => {
    const saved = process.env.NODE_ENV;
    process.env.NODE_ENV = value;
    try {
      return fn();
    } finally {
      process.env.NODE_ENV = saved;
    }
  };

  it('refuses a secret shorter than 32 bytes under NODE_ENV=production (CR_SHORT_JWT_SECRET)', () => {
    let error: unknown;
    withEnv('production', () => {
      try {
        build();
      } catch (e) {
        error = e;
      }
    });
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).code).toBe('CR_SHORT_JWT_SECRET');
    expect((error as Error).message).not.toContain('"x"');
  });

  it('warns about it otherwise (CR_SHORT_JWT_SECRET), once', () => {
    const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      withEnv('development', () => {
        build();
        build();
      });
      const ours = spy.mock.calls.filter(([, options]) => (options as { code?: string } | undefined)?.code === 'CR_SHORT_JWT_SECRET');
      expect(ours).toHaveLength(1);
      expect(String(ours[0]![0])).toMatch(/1 byte long, shorter than 32/);
    } finally {
      spy.mockRestore();
    }
  });
});
