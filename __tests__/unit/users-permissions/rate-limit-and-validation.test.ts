import { fieldValidationError } from '../../../lib/errors';
import { memoryEngine } from '../../../lib';
import { createRateLimiter, rateLimitKey, rateLimitKeyText } from '../../../lib/users-permissions/rate-limit';
import { validateStrings } from '../../../lib/users-permissions/validate-body';

describe('rateLimitKey (Strapi\'s buildPrefixKey)', () => {
  it.each([
    ['/api/auth/local', { email: 'a@b.c' }, 'noIdentifier:/api/auth/local:1.2.3.4'],
    ['/API/Auth/Local/', {}, 'noIdentifier:/api/auth/local:1.2.3.4'],
    ['//api//auth//local', {}, 'noIdentifier:/api/auth/local:1.2.3.4'],
    ['/api/auth/reset-password', { email: 'x@y.z' }, 'noIdentifier:/api/auth/reset-password:1.2.3.4'],
    ['/api/auth/change-password', {}, 'noIdentifier:/api/auth/change-password:1.2.3.4'],
    ['/api/auth/local/register', { email: 'User@Example.com' }, 'user@example.com:/api/auth/local/register:1.2.3.4'],
    ['/api/auth/forgot-password', { email: { $ne: 1 } }, 'unknownIdentifier:/api/auth/forgot-password:1.2.3.4'],
    ['/api/auth/forgot-password', undefined, 'unknownIdentifier:/api/auth/forgot-password:1.2.3.4'],
    ['/api/auth/forgot-password', { email: `${'a'.repeat(300)}@example.com` }, 'unknownIdentifier:/api/auth/forgot-password:1.2.3.4'],
    ['/api/auth/send-email-confirmation', { email: 'not-an-address' }, 'unknownIdentifier:/api/auth/send-email-confirmation:1.2.3.4'],
  ])('%s %j -> %s', (path, body, key) => {
    expect(rateLimitKeyText(path, '1.2.3.4', body)).toBe(key);
  });

  it('is stored as a hash of fixed size, whatever the body (a 512 KB "email" included)', () => {
    const huge = { email: `${'x'.repeat(512 * 1024)}@example.com` };
    const keys = [rateLimitKey('/api/auth/forgot-password', '1.2.3.4', huge), rateLimitKey('/api/auth/local/register', '1.2.3.4', { email: 'a@b.c' })];
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rateLimitKey('/api/auth/forgot-password', '1.2.3.4', huge)).toBe(rateLimitKey('/api/auth/forgot-password', '1.2.3.4', {}));
  });
});

describe('createRateLimiter', () => {
  it('counts per key in a fixed window kept in the engine, and opens a new window once it is over', async () => {
    const engine = memoryEngine({ ephemeral: true });
    let now = 1_000;
    const limiter = createRateLimiter(engine, { interval: 100, max: 2 }, () => now);
    expect([(await limiter.take('k')).allowed, (await limiter.take('k')).allowed, (await limiter.take('k')).allowed, (await limiter.take('other')).allowed]).toEqual([true, true, false, true]);
    // A second limiter on the same engine (another app instance) shares the count.
    const instance2 = createRateLimiter(engine, { interval: 100, max: 2 }, () => now);
    expect((await instance2.take('k')).allowed).toBe(false);
    now += 100;
    expect((await instance2.take('k')).allowed).toBe(true);
    expect(await engine.count('up_rate_limits', {})).toBe(1); // the expired windows were removed
    await engine.close();
  });
});

describe('createRateLimiter: no write but its own window per request', () => {
  it('reopens an expired window in place, sweeps other expired windows at most once per interval, and says when a window ends', async () => {
    const engine = memoryEngine({ ephemeral: true });
    const deletes: unknown[] = [];
    const counted = new Proxy(engine, {
      get: (target, key, receiver) => (key === 'deleteMany' ? (...args: Parameters<typeof engine.deleteMany>) => (deletes.push(args[1]), target.deleteMany(...args)) : Reflect.get(target, key, receiver)),
    });
    let now = 1_000;
    const limiter = createRateLimiter(counted, { interval: 100, max: 1 }, () => now);
    for (const key of ['a', 'b', 'c', 'd']) expect(await limiter.take(key)).toEqual({ allowed: true, resetAt: 1_100 });
    expect(deletes).toHaveLength(1); // four new windows, one sweep
    now = 1_050;
    expect(await limiter.take('a')).toEqual({ allowed: false, resetAt: 1_100 });
    expect(await limiter.take('a', 2)).toEqual({ allowed: false, resetAt: 1_100 }); // a third request, against a max of 2
    now = 1_120;
    expect(await limiter.take('a')).toEqual({ allowed: true, resetAt: 1_220 }); // reopened in place
    expect(deletes).toHaveLength(2); // the next sweep, an interval later
    expect(await engine.count('up_rate_limits', {})).toBe(1);
    await engine.close();
  });
});

describe('validateStrings (the plugin\'s yup messages)', () => {
  const capture = (fn: () => unknown): unknown => {
    try {
      fn();
    } catch (error) {
      return { message: (error as Error).message, details: (error as { details: unknown }).details };
    }
    return undefined;
  };

  it('casts numbers as yup does, and prints objects in its notType message', () => {
    expect(validateStrings({ identifier: 5, password: true }, { identifier: { required: true }, password: { required: true } })).toEqual({ identifier: '5', password: 'true' });
    const message = 'identifier must be a `string` type, but the final value was: `{\n  "$ne": "null"\n}`.';
    expect(capture(() => validateStrings({ identifier: { $ne: null } }, { identifier: { required: true } }))).toEqual({
      message,
      details: fieldValidationError([{ path: ['identifier'], message, name: 'ValidationError', value: { $ne: null } }]).details,
    });
  });

  it('reports required fields without a value, in the schema order, and empty strings as missing', () => {
    const error = capture(() => validateStrings({ username: '' }, { email: { required: true, email: true }, username: { required: true } })) as { message: string; details: { errors: unknown[] } };
    expect(error.message).toBe('2 errors occurred');
    expect(error.details.errors).toEqual([
      { path: ['email'], message: 'email is a required field', name: 'ValidationError' },
      { path: ['username'], message: 'username is a required field', name: 'ValidationError' },
    ]);
  });

  it('checks e-mails and the 72 bytes bcrypt reads', () => {
    expect(capture(() => validateStrings({ email: 'not-an-email' }, { email: { email: true } }))).toMatchObject({ message: 'email must be a valid email' });
    expect(capture(() => validateStrings({ password: 'é'.repeat(37) }, { password: { maxBytes: 72 } }))).toMatchObject({ message: 'Password must be less than 73 bytes' });
    expect(validateStrings({ password: 'é'.repeat(36) }, { password: { maxBytes: 72 } })).toEqual({ password: 'é'.repeat(36) });
  });
});
