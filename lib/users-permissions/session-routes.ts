import { randomUUID } from 'node:crypto';
import type { CookieOptions, Request, RequestHandler, Response, Router } from 'express';
import type { Ability } from '../auth/types';
import { ApplicationError, NotFoundError, UnauthorizedError, ValidationError } from '../errors';
import { methodNotAllowed } from '../http/error-handler';
import { deviceName } from './device-name';
import type { SessionManager, SessionTokens } from './sessions';
import type { ResolvedUsersOptions } from './users-options';

type Row = Record<string, unknown>;
type Handler = (req: Request, res: Response, ability: Ability) => Promise<void>;
/** The plugin's route wrapper (routes.ts): the action's grant (403), the body's bounds, then `fn`. */
export type RouteWrapper = (action: string, fn: Handler, limited?: boolean) => RequestHandler;

/** 400 `BadRequestError`, as Koa's `ctx.badRequest(message)` answers in Strapi. */
class BadRequestError extends ApplicationError {
  override name = 'BadRequestError';
}

/** What the session routes need from the plugin. */
export interface SessionRoutesDeps {
  readonly options: ResolvedUsersOptions;
  /** The session manager in session mode (`jwtManagement: 'refresh'`); undefined in legacy mode. */
  readonly sessions: SessionManager | undefined;
  /** The authenticated user of the request (its access token), if any. */
  readonly currentUser: (req: Request) => Row | undefined;
  /** The session of the request's access token, if any. */
  readonly currentSession: (req: Request) => string | undefined;
}

/** How a login-like route obtained its user: it opens the session differently (Strapi's controllers). */
export type AuthKind = 'login' | 'register' | 'password';

/** A `deviceId` longer than this is refused: it is stored with every session of the device. */
const MAX_DEVICE_ID = 256;
/** A refresh token longer than this is not even verified (a JWT of this plugin is about 200 characters). */
const MAX_TOKEN = 4096;

/** Strapi's `extractDeviceId`: a non-empty string, else none. */
function deviceIdOf(body: unknown): string | undefined {
  const id = (body as { deviceId?: unknown } | null | undefined)?.deviceId;
  if (typeof id !== 'string' || id === '') return undefined;
  if (id.length > MAX_DEVICE_ID) throw new ValidationError(`deviceId must be at most ${MAX_DEVICE_ID} characters`);
  return id;
}

/** The value of cookie `name` in the request's `Cookie` header (RFC 6265 pairs), or undefined. */
function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string' || header.length > 16_384) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    const raw = pair.slice(at + 1).trim().replace(/^"(.*)"$/, '$1');
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

/** Strapi's `buildRefreshCookieOptions`: httpOnly, `secure` in production unless configured, `lax`, path `/`. */
function cookieOptions(options: ResolvedUsersOptions): CookieOptions {
  const c = options.sessions.cookie;
  return {
    httpOnly: true,
    secure: typeof c.secure === 'boolean' ? c.secure : process.env.NODE_ENV === 'production',
    sameSite: c.sameSite ?? 'lax',
    path: c.path ?? '/',
    ...(c.domain !== undefined ? { domain: c.domain } : {}),
    ...(c.maxAge !== undefined ? { maxAge: c.maxAge } : {}),
  };
}

/** Whether the refresh token travels in the cookie: configured, or asked by the request (`x-strapi-refresh-cookie: httpOnly`). */
const inCookie = (req: Request, options: ResolvedUsersOptions): boolean => options.sessions.httpOnly || req.get('x-strapi-refresh-cookie') === 'httpOnly';

/** Tokens and the user, or the tokens in the cookie and the rest in the body. */
function sendTokens(req: Request, res: Response, options: ResolvedUsersOptions, tokens: SessionTokens, rest: Row, cookie: boolean): void {
  if (cookie && inCookie(req, options)) {
    res.cookie(options.sessions.cookie.name, tokens.refreshToken, cookieOptions(options));
    res.status(200).json({ jwt: tokens.jwt, ...rest });
  } else {
    res.status(200).json({ jwt: tokens.jwt, refreshToken: tokens.refreshToken, ...rest });
  }
}

/**
 * How register, login, change-password and reset-password answer: as they are in legacy mode; in session mode
 * (Strapi's `sendRefreshAuthResponse` and `reissueTokensAfterPasswordChange`) with a new session's tokens,
 * `{ jwt, refreshToken, user }`. A password change or reset first ends every session of the user. A login's session
 * takes the body's `deviceId` (or none), the others a random one unless the body names one.
 *
 * @example
 * const answer = createAuthAnswer(deps);
 * await answer(req, res, await accounts.login(ctx, req.body, ability), 'login');
 */
export function createAuthAnswer(deps: SessionRoutesDeps): (req: Request, res: Response, body: Row, kind: AuthKind) => Promise<void> {
  const { sessions, options } = deps;
  return async (req, res, body, kind) => {
    const user = body.user as Row | undefined;
    if (!sessions || typeof body.jwt !== 'string' || user?.id === undefined) {
      res.status(200).json(body);
      return;
    }
    const userId = String(user.id);
    const given = deviceIdOf(req.body);
    if (kind === 'password') await sessions.endAll(userId);
    const deviceId = kind === 'login' ? given : (given ?? randomUUID());
    const metadata = kind === 'password' ? undefined : { deviceName: deviceName(req.get('user-agent')) };
    const tokens = await sessions.open(userId, deviceId, metadata);
    sendTokens(req, res, options, tokens, { user }, kind !== 'password');
  };
}

/**
 * Strapi 5's session routes of the users-permissions plugin: `POST /auth/refresh`, `POST /auth/logout`,
 * `GET /auth/sessions`, `DELETE /auth/sessions/:sessionId`. Each checks its grant first (`auth.refresh` is the
 * Public role's, the others the Authenticated role's), then answers 404 outside session mode, as Strapi does.
 */
export function sessionRoutes(deps: SessionRoutesDeps, router: Router, route: RouteWrapper): void {
  const { options } = deps;
  const manager = (): SessionManager => {
    if (!deps.sessions) throw new NotFoundError();
    return deps.sessions;
  };
  const userId = (req: Request): string => {
    const user = deps.currentUser(req);
    if (!user) throw new UnauthorizedError('Missing authentication');
    return String(user.id);
  };

  router.route('/auth/refresh').post(route('auth.refresh', async (req, res) => {
    const sessions = manager();
    const token = readCookie(req, options.sessions.cookie.name) || (req.body as { refreshToken?: unknown } | undefined)?.refreshToken;
    if (typeof token !== 'string' || token === '') throw new BadRequestError('Missing refresh token');
    const tokens = token.length <= MAX_TOKEN ? await sessions.rotate(token) : null;
    if (!tokens) throw new UnauthorizedError('Invalid refresh token');
    sendTokens(req, res, options, tokens, {}, true);
  })).all(methodNotAllowed(['POST']));

  router.route('/auth/logout').post(route('auth.logout', async (req, res) => {
    const sessions = manager();
    const id = userId(req);
    const body = (req.body ?? {}) as Row;
    // Strapi logs a failed logout and answers ok; here the error is answered (503 while the engine is down), so that
    // a client never believes a session ended when it did not.
    await logout(sessions, req, id, body, readCookie(req, options.sessions.cookie.name));
    if (inCookie(req, options)) {
      const { maxAge: _maxAge, ...cleared } = cookieOptions(options);
      res.cookie(options.sessions.cookie.name, '', { ...cleared, expires: new Date(0) });
    }
    res.status(200).json({ ok: true });
  })).all(methodNotAllowed(['POST']));

  router.route('/auth/sessions').get(route('auth.getSessions', async (req, res) => {
    const sessions = manager();
    res.status(200).json({ data: await sessions.list(userId(req), deps.currentSession(req)) });
  })).all(methodNotAllowed(['GET']));

  router.route('/auth/sessions/:sessionId').delete(route('auth.revokeSession', async (req, res) => {
    const sessions = manager();
    if (!(await sessions.revoke(userId(req), String(req.params.sessionId)))) throw new NotFoundError('Session not found');
    res.status(200).json({ data: {} });
  })).all(methodNotAllowed(['DELETE']));

  /** Strapi's `revokeLogoutSessions`: every session, a device's, the refresh token's, the access token's, else all. */
  async function logout(sessions: SessionManager, req: Request, id: string, body: Row, cookie: string | undefined): Promise<void> {
    if (body.scope === 'all') return sessions.endAll(id);
    // A filter only, never stored: any length (a device that does not exist ends nothing).
    if (typeof body.deviceId === 'string' && body.deviceId !== '') return sessions.endAll(id, body.deviceId);
    let current = deps.currentSession(req);
    const refreshToken = cookie || (typeof body.refreshToken === 'string' ? body.refreshToken : undefined);
    if (refreshToken && refreshToken.length <= MAX_TOKEN) current = (await sessions.sessionOfRefreshToken(refreshToken)) ?? current;
    if (current !== undefined) await sessions.revoke(id, current);
    else await sessions.endAll(id);
  }
}
