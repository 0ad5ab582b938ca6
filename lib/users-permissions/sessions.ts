import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Engine, IndexSpec } from '../engine';
import { SESSIONS_COLLECTION } from './content-types';

type Row = Record<string, unknown>;

/** Strapi's session lifespans (`plugin::users-permissions.sessions`), in seconds. */
export interface SessionLifespans {
  readonly accessTokenLifespan: number;
  readonly maxRefreshTokenLifespan: number;
  readonly idleRefreshTokenLifespan: number;
}

/**
 * What a login keeps besides its tokens, shown by `GET /auth/sessions` (Strapi's `buildSessionMetadata`): the time of
 * the login and the device named by its User-Agent. Sessions opened without it (after a password change or reset,
 * as Strapi's) list neither.
 */
export interface SessionMetadata {
  /** "Chrome on macOS", from the User-Agent of the login (absent when it names nothing known). */
  readonly deviceName?: string;
}

/** A new session's two tokens. */
export interface SessionTokens {
  /** The short access token (`{ userId, sessionId, type: 'access', iat, exp }`), a bearer token. */
  readonly jwt: string;
  /** The refresh token (`{ userId, sessionId, type: 'refresh', exp }`), spent by `POST /auth/refresh`. */
  readonly refreshToken: string;
}

/** One session as `GET /auth/sessions` lists it (Strapi's `sanitizeSessionEntry`). */
export interface SessionEntry {
  id: string;
  deviceId: string | null;
  deviceName?: string;
  current: boolean;
  loginAt?: string;
  lastActiveAt: string;
}

/** The caller an access token stands for. */
export interface SessionCaller {
  readonly userId: string;
  readonly sessionId: string;
}

/** Strapi 5's session manager of the `users-permissions` origin, with the sessions stored in the engine. */
export interface SessionManager {
  /** Opens a session (a new family) for the user and answers its tokens; `metadata` for a login or a register. */
  open(userId: string, deviceId: string | undefined, metadata?: SessionMetadata): Promise<SessionTokens>;
  /** Spends a refresh token: its session is rotated into a new one (same family); null when it cannot be spent. */
  rotate(refreshToken: string): Promise<SessionTokens | null>;
  /**
   * The caller of an access token: valid signature, type `access`, not expired, and (unlike Strapi, which trusts
   * the token until it expires) its session not ended: logged out, revoked, or ended by a password change.
   */
  verifyAccess(token: string): Promise<SessionCaller | null>;
  /** The session of a refresh token that could still be spent (Strapi's `validateRefreshToken`), else null. */
  sessionOfRefreshToken(token: string): Promise<string | null>;
  /** Ends one session of the user (Strapi's `revokeSessionById`): false when the user has no such session. */
  revoke(userId: string, sessionId: string): Promise<boolean>;
  /** Ends every session of the user, or those of one device (Strapi's `invalidateRefreshToken`). */
  endAll(userId: string, deviceId?: string): Promise<void>;
  /** The user's live sessions, the current one first, then the most recently active (`GET /auth/sessions`). */
  list(userId: string, currentSessionId: string | undefined): Promise<SessionEntry[]>;
}

/**
 * The sessions' collection: found by `sessionId` (unique), by user (list, log out everywhere), by family (is an
 * access token's login still alive), and expired rows by `expiresAt` (the periodic clean-up).
 */
export const SESSION_INDEXES: readonly IndexSpec[] = [
  { keys: { sessionId: 1 }, unique: true, name: 'session_id' },
  { keys: { userId: 1, deviceId: 1 }, name: 'user_device' },
  { keys: { familyId: 1, status: 1 }, name: 'family_status' },
  { keys: { expiresAt: 1 }, name: 'expires_at' },
];

/** How often (in sessions opened) expired rows are deleted, as Strapi's `maybeCleanupExpired`. */
const CLEANUP_EVERY = 50;
const ALGORITHM = 'HS256';
const ORIGIN = 'users-permissions';

interface RefreshPayload {
  userId: string;
  sessionId: string;
  type: 'refresh';
}

/** The payload of a token of this secret (HS256 only, not expired), or null. */
function verifyToken(token: string, secret: string): Row | null {
  try {
    const payload = jwt.verify(token, secret, { algorithms: [ALGORITHM] });
    return typeof payload === 'object' && payload !== null ? (payload as Row) : null;
  } catch {
    return null;
  }
}

const isRefresh = (p: Row | null): p is Row & RefreshPayload => p?.type === 'refresh' && typeof p.sessionId === 'string' && typeof p.userId === 'string';

/**
 * Strapi 5's `SessionManager` for the users-permissions origin (`jwtManagement: 'refresh'`): a login opens a session
 * family; its refresh token (a JWT naming the session, `exp` the idle window) is spent once by `/auth/refresh`, which
 * marks the session `rotated` and opens its child in the same family (same device, same absolute end); an access
 * token is signed for a live session and lasts `accessTokenLifespan`. A rotated session is kept only as long as an
 * access token signed for it could live, so a family holds one or two rows however often it is refreshed.
 *
 * Every row lives in the engine (`up_sessions`), so a logout on one app instance is seen at once by every other.
 * A rotation is one conditional update (`status: 'active'` -> `'rotated'`): of two instances spending the same
 * refresh token at once, one wins and the other answers 401.
 *
 * @example
 * const sessions = createSessionManager(engine, { secret, lifespans: { accessTokenLifespan: 600, maxRefreshTokenLifespan: 2592000, idleRefreshTokenLifespan: 1209600 } });
 * const { jwt, refreshToken } = await sessions.open('1', 'my-phone', { deviceName: 'Safari on iOS' });
 */
export function createSessionManager(engine: Engine, options: { secret: string; lifespans: SessionLifespans; now?: () => number }): SessionManager {
  const { secret, lifespans } = options;
  const now = options.now ?? Date.now;
  let opened = 0;

  const find = async (sessionId: string): Promise<Row | undefined> => (await engine.find(SESSIONS_COLLECTION, { sessionId }, { limit: 1 }))[0];
  const refreshTokenOf = (row: Row): string =>
    jwt.sign({ userId: row.userId, sessionId: row.sessionId, type: 'refresh', exp: Math.floor((row.expiresAt as number) / 1000) }, secret, { algorithm: ALGORITHM, noTimestamp: true });
  const accessTokenOf = (row: Row): string =>
    jwt.sign({ userId: row.userId, sessionId: row.sessionId, type: 'access' }, secret, { algorithm: ALGORITHM, expiresIn: lifespans.accessTokenLifespan });
  const tokensOf = (row: Row): SessionTokens => ({ jwt: accessTokenOf(row), refreshToken: refreshTokenOf(row) });
  /** A session row that a refresh token may still spend. */
  const spendable = (row: Row | undefined, at: number): row is Row =>
    row !== undefined && row.status === 'active' && (row.expiresAt as number) > at && (row.absoluteExpiresAt as number) > at;

  const cleanUp = async (): Promise<void> => {
    if (++opened % CLEANUP_EVERY !== 0) return;
    await engine.deleteMany(SESSIONS_COLLECTION, { expiresAt: { $lte: now() } });
  };

  return {
    async open(userId, deviceId, metadata) {
      await cleanUp();
      const at = now();
      const sessionId = randomBytes(16).toString('hex');
      const absoluteExpiresAt = at + lifespans.maxRefreshTokenLifespan * 1000;
      const row: Row = {
        sessionId, userId, deviceId: deviceId ?? null, origin: ORIGIN, familyId: sessionId, parentId: null, childId: null,
        type: 'refresh', status: 'active', createdAt: at,
        expiresAt: Math.min(at + lifespans.idleRefreshTokenLifespan * 1000, absoluteExpiresAt), absoluteExpiresAt,
        ...(metadata ? { loginAt: at } : {}),
        ...(metadata?.deviceName ? { deviceName: metadata.deviceName } : {}),
      };
      await engine.insertMany(SESSIONS_COLLECTION, [row]);
      return tokensOf(row);
    },

    async rotate(refreshToken) {
      const payload = verifyToken(refreshToken, secret);
      if (!isRefresh(payload)) return null;
      const at = now();
      const current = await find(payload.sessionId);
      if (!spendable(current, at) || current.userId !== payload.userId) return null;
      const childId = randomBytes(16).toString('hex');
      // The parent is kept while an access token signed for it may live (401s for its reuse meanwhile, as Strapi).
      const parentEnd = Math.min(current.expiresAt as number, at + lifespans.accessTokenLifespan * 1000);
      // One conditional write decides a race: a write to one document is atomic, so of two updates filtered on
      // `status: 'active'` only the first matches (https://www.mongodb.com/docs/manual/core/write-operations-atomicity/).
      const won = await engine.updateMany(SESSIONS_COLLECTION, { sessionId: current.sessionId, status: 'active' }, { $set: { status: 'rotated', childId, expiresAt: parentEnd } });
      if (won === 0) return null;
      const absoluteExpiresAt = current.absoluteExpiresAt as number;
      const child: Row = {
        ...current, sessionId: childId, parentId: current.sessionId, childId: null, status: 'active', createdAt: at,
        expiresAt: Math.min(at + lifespans.idleRefreshTokenLifespan * 1000, absoluteExpiresAt),
      };
      delete child._id;
      delete child.id;
      await engine.insertMany(SESSIONS_COLLECTION, [child]);
      return tokensOf(child);
    },

    async verifyAccess(token) {
      const payload = verifyToken(token, secret);
      if (payload?.type !== 'access' || typeof payload.sessionId !== 'string' || typeof payload.userId !== 'string') return null;
      const row = await find(payload.sessionId);
      if (!row || row.userId !== payload.userId || (row.absoluteExpiresAt as number) <= now()) return null;
      // A rotated session lives on in its child: the login is alive while its family has a live session.
      if (row.status !== 'active' && (await engine.count(SESSIONS_COLLECTION, { familyId: row.familyId, status: 'active' })) === 0) return null;
      return { userId: payload.userId, sessionId: payload.sessionId };
    },

    async sessionOfRefreshToken(token) {
      const payload = verifyToken(token, secret);
      if (!isRefresh(payload)) return null;
      const row = await find(payload.sessionId);
      return spendable(row, now()) && row.userId === payload.userId ? payload.sessionId : null;
    },

    async revoke(userId, sessionId) {
      return (await engine.deleteMany(SESSIONS_COLLECTION, { userId, sessionId })) > 0;
    },

    async endAll(userId, deviceId) {
      await engine.deleteMany(SESSIONS_COLLECTION, deviceId === undefined ? { userId } : { userId, deviceId });
    },

    async list(userId, currentSessionId) {
      const at = now();
      const rows = await engine.find(SESSIONS_COLLECTION, { userId, status: 'active', expiresAt: { $gt: at }, absoluteExpiresAt: { $gt: at } });
      const entries = rows.map((row): SessionEntry => ({
        id: row.sessionId as string,
        deviceId: typeof row.deviceId === 'string' ? row.deviceId : null,
        ...(typeof row.deviceName === 'string' ? { deviceName: row.deviceName } : {}),
        current: row.sessionId === currentSessionId,
        ...(typeof row.loginAt === 'number' ? { loginAt: new Date(row.loginAt).toISOString() } : {}),
        lastActiveAt: new Date(row.createdAt as number).toISOString(),
      }));
      return entries.sort((a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt.localeCompare(a.lastActiveAt));
    },
  };
}
