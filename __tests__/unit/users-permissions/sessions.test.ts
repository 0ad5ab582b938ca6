import jwt from 'jsonwebtoken';
import type { Engine } from '../../../lib';
import { SESSIONS_COLLECTION } from '../../../lib/users-permissions/content-types';
import { deviceName } from '../../../lib/users-permissions/device-name';
import { createSessionManager, SESSION_INDEXES } from '../../../lib/users-permissions/sessions';
import { resolveUsersOptions } from '../../../lib/users-permissions/users-options';
import { bareTestEngine } from '../../helpers/test-engine';

const SECRET = 'unit-test-session-secret-0123456789abcdef';
const LIFESPANS = { accessTokenLifespan: 600, idleRefreshTokenLifespan: 3600, maxRefreshTokenLifespan: 3 * 3600 };

describe('createSessionManager (Strapi\'s SessionManager, sessions in the engine)', () => {
  let engine: Engine;
  let now: number;
  // A clock of whole seconds far from the real one: the JWTs' `exp` is checked against Date.now by jsonwebtoken,
  // so the tokens are signed for "now" and the stored windows follow this clock.
  const manager = () => createSessionManager(engine, { secret: SECRET, lifespans: LIFESPANS, now: () => now });
  beforeEach(async () => {
    engine = bareTestEngine();
    await engine.init([{ name: SESSIONS_COLLECTION, indexes: SESSION_INDEXES }]);
    now = Math.floor(Date.now() / 1000) * 1000;
  });

  it('refuses a refresh token once its idle window is over, though its JWT has not expired', async () => {
    const sessions = manager();
    const { refreshToken } = await sessions.open('1', 'dev');
    const stored = (await engine.find(SESSIONS_COLLECTION, {}))[0]!;
    expect(stored.expiresAt).toBe(now + 3600_000);
    await engine.updateMany(SESSIONS_COLLECTION, {}, { $set: { expiresAt: now - 1 } }); // the idle window is over
    expect(await sessions.rotate(refreshToken)).toBeNull();
    expect(await sessions.sessionOfRefreshToken(refreshToken)).toBeNull();
  });

  it('keeps a family within its absolute end: a child never outlives maxRefreshTokenLifespan', async () => {
    const sessions = manager();
    let tokens = await sessions.open('1', undefined);
    const absolute = now + 3 * 3600_000;
    // Refreshed every 50 minutes (within the idle hour); the last, 30 minutes before the end, is cut there.
    for (let i = 0; i < 3; i++) {
      now += 50 * 60_000;
      tokens = (await sessions.rotate(tokens.refreshToken))!;
    }
    const child = (await engine.find(SESSIONS_COLLECTION, { status: 'active' }))[0]!;
    expect({ expiresAt: child.expiresAt, absoluteExpiresAt: child.absoluteExpiresAt }).toEqual({ expiresAt: absolute, absoluteExpiresAt: absolute });
    expect((jwt.decode(tokens.refreshToken) as { exp: number }).exp).toBe(absolute / 1000);
    now = absolute;
    expect(await sessions.rotate(tokens.refreshToken)).toBeNull();
    expect(await sessions.verifyAccess(tokens.jwt)).toBeNull(); // the login is over for its access tokens too
  });

  it('keeps a rotated session only while an access token signed for it may live, and deletes expired rows', async () => {
    const sessions = manager();
    let tokens = await sessions.open('1', 'dev');
    for (let i = 0; i < 5; i++) tokens = (await sessions.rotate(tokens.refreshToken))!;
    const rotated = await engine.find(SESSIONS_COLLECTION, { status: 'rotated' });
    expect(rotated.map((r) => r.expiresAt)).toEqual(Array(5).fill(now + 600_000));
    now += 601_000;
    // The clean-up runs every 50 sessions opened (Strapi's maybeCleanupExpired): 49 more logins.
    for (let i = 0; i < 49; i++) await sessions.open('2', undefined);
    expect(await engine.count(SESSIONS_COLLECTION, { userId: '1' })).toBe(1);
    expect(await sessions.rotate(tokens.refreshToken)).not.toBeNull();
  });

  it('refuses a token whose user does not own its session, and a session of another type', async () => {
    const sessions = manager();
    const { jwt: access, refreshToken } = await sessions.open('1', 'dev');
    const { sessionId } = jwt.decode(refreshToken) as { sessionId: string };
    const stolen = jwt.sign({ userId: '2', sessionId, type: 'refresh', exp: Math.floor(now / 1000) + 60 }, SECRET);
    const stolenAccess = jwt.sign({ userId: '2', sessionId, type: 'access' }, SECRET, { expiresIn: 60 });
    expect(await sessions.rotate(stolen)).toBeNull();
    expect(await sessions.verifyAccess(stolenAccess)).toBeNull();
    expect(await sessions.verifyAccess(refreshToken)).toBeNull();
    expect(await sessions.rotate(access)).toBeNull();
    expect(await sessions.verifyAccess(access)).toEqual({ userId: '1', sessionId });
  });
});

describe('deviceName (a session\'s device, from the login\'s User-Agent)', () => {
  it.each([
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36', 'Chrome on macOS'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91', 'Edge on Windows'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1', 'Safari on iOS'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36', 'Chrome on Android'],
    ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0', 'Firefox on Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0', 'Firefox on Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15', 'Safari on macOS'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Vivaldi/6.5', 'Vivaldi on macOS'],
    ['Firefox/121.0', 'Firefox'],
    ['Mozilla/5.0 (Windows NT 10.0)', 'Windows'],
    ['node', undefined],
    ['node-superagent/3.8.3', undefined],
    ['curl/8.4.0', undefined],
    ['', undefined],
    [undefined, undefined],
    // Only the first 1024 characters are read, as Strapi's parser clamps them.
    [`Mozilla/5.0 (X11; Linux x86_64) Firefox/121.0 ${'x'.repeat(100_000)}`, 'Firefox on Linux'],
    [`${'x'.repeat(1024)} Firefox/121.0`, undefined],
  ])('%#: %s -> %s', (ua, name) => {
    expect(deviceName(ua)).toBe(name);
  });
});

describe('auth.users session options', () => {
  const base = { jwtSecret: 'x'.repeat(32) };
  it('defaults to legacy mode with Strapi\'s lifespans', () => {
    const o = resolveUsersOptions(base);
    expect({ mode: o.jwtManagement, ...o.sessions }).toEqual({
      mode: 'legacy-support', accessTokenLifespan: 600, idleRefreshTokenLifespan: 1209600, maxRefreshTokenLifespan: 2592000, httpOnly: false, cookie: { name: 'strapi_up_refresh' },
    });
  });

  it.each([
    [{ jwtManagement: 'refresh-tokens' }, /auth\.users\.jwtManagement/],
    [{ sessions: { accessTokenLifespan: 0 } }, /auth\.users\.sessions\.accessTokenLifespan/],
    [{ sessions: { idleRefreshTokenLifespan: '14d' } }, /auth\.users\.sessions\.idleRefreshTokenLifespan/],
    [{ sessions: { refreshTokenLifespan: 60 } }, /auth\.users\.sessions/],
    [{ sessions: { cookie: { name: 'bad name;' } } }, /auth\.users\.sessions\.cookie\.name/],
    [{ sessions: { cookie: { sameSite: 'Lax' } } }, /auth\.users\.sessions\.cookie\.sameSite/],
  ])('refuses %j (CR_INVALID_OPTIONS)', (given, message) => {
    expect(() => resolveUsersOptions({ ...base, ...given })).toThrow(message);
  });
});
