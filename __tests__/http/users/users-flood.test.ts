import { randomBytes } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import request from 'supertest';
import { bearer, createUsersApp, registerUser, type UsersApp } from './users-helpers';

// Issue 28 (High 2): anonymous requests must not make the server keep memory or disk. Every auth route is flooded
// with large distinct inputs, twice: what the engine stores (rows and their bytes in the rate limit's and the
// users' collections) must not grow from the first flood to the second, nor the heap beyond a generous bound.

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const BIG = 64 * 1024;
const PER_ROUTE = 60; // past the per-IP window (5 * max = 50) of the routes that take an address
const big = (): string => randomBytes(BIG / 2).toString('hex');

describe('users-permissions: a flood of large distinct inputs to every auth route', () => {
  let t: UsersApp;
  let jwt: string;
  beforeAll(async () => {
    t = await createUsersApp();
    jwt = (await registerUser(t.app, 'flooded')).jwt;
  });

  /** One request of each kind per route, each input new and large. */
  const flood = async (): Promise<number[]> => {
    const statuses: number[] = [];
    const post = async (path: string, body: object, headers: Record<string, string> = {}): Promise<void> => {
      statuses.push((await request(t.app).post(path).set(headers).send(body)).status);
    };
    for (let i = 0; i < PER_ROUTE; i++) {
      const n = randomBytes(6).toString('hex');
      // A huge "address", and a valid new address with a huge username (what register stored for ever).
      await post('/api/auth/local/register', i % 2 ? { username: `u${n}`, email: `${big()}@example.com`, password: 'Flood-pass-1' } : { username: big(), email: `${n}@example.com`, password: 'Flood-pass-1' });
      await post('/api/auth/forgot-password', { email: i % 2 ? `${big()}@example.com` : big() });
      await post('/api/auth/send-email-confirmation', { email: `${big()}@example.com` });
      await post('/api/auth/local', { identifier: big(), password: big() });
      await post('/api/auth/reset-password', { code: big(), password: 'Flood-pass-2', passwordConfirmation: 'Flood-pass-2' });
      await post('/api/auth/change-password', { currentPassword: big(), password: 'Flood-pass-3', passwordConfirmation: 'Flood-pass-3' }, bearer(jwt));
    }
    return statuses;
  };

  /** Rows and bytes (as JSON) the engine holds in the rate limit's and the users' collections. */
  const stored = async (): Promise<{ limits: number; users: number; bytes: number }> => {
    const limits = await t.engine.find('up_rate_limits', {});
    const users = await t.engine.find('up_users', {});
    return { limits: limits.length, users: users.length, bytes: JSON.stringify([limits, users]).length };
  };

  const heap = (): number => {
    gc();
    return process.memoryUsage().heapUsed;
  };

  it('keeps the stored rows, their bytes and the heap flat, and answers only 4xx', async () => {
    const first = await flood();
    expect(first.every((s) => s >= 400 && s < 500)).toBe(true);
    const after1 = await stored();
    const heap1 = heap();
    const second = await flood();
    expect(second.every((s) => s >= 400 && s < 500)).toBe(true);
    const after2 = await stored();
    const heap2 = heap();

    // Nothing new kept: every window reused (only its count grows a digit), no user stored.
    expect({ limits: after2.limits, users: after2.users }).toEqual({ limits: after1.limits, users: after1.users });
    expect(after2.bytes - after1.bytes).toBeLessThan(after1.limits * 4);
    expect(after2.users).toBe(1); // the one registered above
    // Fixed-size keys: a window row is a few dozen bytes whatever the request was.
    expect(after2.bytes).toBeLessThan(after2.limits * 200 + 4096);
    // 720 requests of 64 KB and more: a row kept per request would be tens of MB.
    expect(heap2 - heap1).toBeLessThan(8 * 1024 * 1024);
  }, 120_000);
});
