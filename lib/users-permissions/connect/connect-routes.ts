import type { CookieOptions, Request, RequestHandler, Response, Router } from 'express';
import type { Ability } from '../../auth/types';
import { ApplicationError, ServiceUnavailableError, ValidationError } from '../../errors';
import { methodNotAllowed } from '../../http/error-handler';
import { rawQueryString } from '../../http/request-context';
import type { AccountsContext } from '../accounts';
import { connectAccount } from './connect-account';
import { createStateSealer, readCookie, STATE_COOKIE, STATE_MAX_AGE, type StateSealer } from './connect-state';
import type { createAuthAnswer } from '../session-routes';
import { createOAuthClient, ProviderRefusedError, type OAuthClient } from './oauth-client';
import type { ResolvedProvider } from './providers-options';

type Handler = (req: Request, res: Response, ability: Ability) => Promise<void>;
/** routes.ts's wrapper: the action's grant (403), the rate limit when `limited` (429), then the handler. */
export type RouteFactory = (action: string, fn: Handler, limited?: boolean) => RequestHandler;

/** routes.ts's answer of a login: `{ jwt, user }`, or in session mode `{ jwt, refreshToken, user }` of a new session. */
export type AuthAnswer = ReturnType<typeof createAuthAnswer>;

/** The longest access token taken from a query string. */
const TOKEN_MAX = 4096;

interface Connectable {
  readonly provider: ResolvedProvider;
  readonly client: OAuthClient;
}

/** What the three handlers share. */
interface ConnectDeps {
  readonly ctx: AccountsContext;
  readonly answer: AuthAnswer;
  readonly sealer: StateSealer;
  /** The provider of the request's `:provider`, or 400 `This provider is disabled` (unknown names too, as Strapi). */
  enabled(req: Request): Connectable;
}

/** A provider error (an OAuth error code) kept for the frontend's `?error=`; anything else reads `invalid_response`. */
function errorCode(error: unknown): string {
  const code = (error as { error?: unknown } | null)?.error;
  return typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? code : 'invalid_response';
}

/** The answer to a failed request to the provider: 400 when it refused (an error answer), 503 when unreachable. */
function providerFailure(ctx: AccountsContext, error: unknown): Error {
  ctx.logger.warn(`users-permissions: social login: ${String(error)}`);
  const name = (error as { name?: unknown } | null)?.name;
  const refused = error instanceof ProviderRefusedError || name === 'ResponseBodyError' || name === 'WWWAuthenticateChallengeError';
  return refused ? new ApplicationError('The provider refused the access token') : new ServiceUnavailableError('The provider could not be reached');
}

/** The state cookie: HttpOnly, Lax, on the provider's `/connect/<name>` path of the configured redirect URI. */
function cookieOptions(provider: ResolvedProvider): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: provider.redirectUri.protocol === 'https:', path: provider.redirectUri.pathname.replace(/\/callback$/, '') };
}

/** `url` with `params` set in its query string. */
function withParams(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.href;
}

/** `?callback=`: another frontend URL, of the configured callback's origin only (Strapi's default validator). */
function customCallback(req: Request, provider: ResolvedProvider): string | undefined {
  const callback = new URLSearchParams(rawQueryString(req)).get('callback') ?? undefined;
  if (callback === undefined) return undefined;
  let origin: string | undefined;
  try {
    origin = new URL(callback).origin;
  } catch {
    origin = undefined;
  }
  if (origin !== provider.callback.origin) throw new ValidationError('Invalid callback URL provided', { callback: callback.slice(0, 2048) });
  return callback;
}

/** `GET /connect/:provider`: to the provider's authorization endpoint, the login's checks in the sealed cookie. */
const connect = (deps: ConnectDeps): Handler => async (req, res) => {
  const { provider, client } = deps.enabled(req);
  const callback = customCallback(req, provider);
  const { url, checks } = await client.authorizationUrl().catch((error: unknown) => {
    throw providerFailure(deps.ctx, error);
  });
  res.cookie(STATE_COOKIE, deps.sealer.seal({ provider: provider.name, checks, ...(callback ? { callback } : {}) }), { ...cookieOptions(provider), maxAge: STATE_MAX_AGE * 1000 });
  res.set('Cache-Control', 'no-store').redirect(url.href);
};

/** `GET /connect/:provider/callback`: the provider's answer redeemed, then to the frontend (`?access_token=`, `?error=`). */
const providerCallback = (deps: ConnectDeps): Handler => async (req, res) => {
  const { provider, client } = deps.enabled(req);
  const state = deps.sealer.open(readCookie(req.headers.cookie, STATE_COOKIE));
  res.clearCookie(STATE_COOKIE, cookieOptions(provider)).set('Cache-Control', 'no-store');
  const query = rawQueryString(req);
  // Back to the frontend page this login chose (checked when it started), or the configured one.
  const target = state?.provider === provider.name ? state.callback : undefined;
  const back = (params: Record<string, string>): void => res.redirect(withParams(target ?? provider.callback.href, params));
  // openid-client checks `state` again; this check tells a forged or replayed answer from the provider's errors.
  if (!state || state.provider !== provider.name || new URLSearchParams(query).get('state') !== state.checks.state) return back({ error: 'invalid_state' });
  let accessToken: string;
  try {
    accessToken = await client.redeem(query, state.checks);
  } catch (error) {
    deps.ctx.logger.warn(`users-permissions: social login with "${provider.name}" failed: ${String(error)}`);
    return back({ error: errorCode(error) });
  }
  back({ access_token: accessToken });
};

/** `GET /auth/:provider/callback?access_token=`: the provider's member, found or created, and its JWT. */
const authCallback = (deps: ConnectDeps): Handler => async (req, res, ability) => {
  const { ctx } = deps;
  const { provider, client } = deps.enabled(req);
  const q = new URLSearchParams(rawQueryString(req));
  const token = q.get('access_token') || q.get('code') || q.get('oauth_token');
  if (!token) throw new ApplicationError('No access_token.');
  if (token.length > TOKEN_MAX) throw new ValidationError(`access_token must be at most ${TOKEN_MAX} characters`);
  // What a bearer token can be (RFC 6750's b64token): anything else could not even be sent to the provider.
  if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(token)) throw new ValidationError('access_token is not a bearer token');
  const profile = await client.profile(token).catch((error: unknown) => {
    throw providerFailure(ctx, error);
  });
  const user = await connectAccount(ctx, provider.name, profile);
  if (user.blocked === true) throw new ApplicationError('Your account has been blocked by an administrator');
  const id = user.id as number;
  const sanitized = await ctx.users.findById(id, ctx.users.query('', ability, 'findOne'));
  res.set('Cache-Control', 'no-store');
  await deps.answer(req, res, { jwt: ctx.jwt.issue({ id }), user: sanitized ?? {} }, 'login');
};

/**
 * Strapi's social login (docs/users.md, "Social login"), for the providers of `auth.users.providers`:
 * - `GET /connect/:provider` (`auth.connect`): redirects to the provider's authorization endpoint, with `state`,
 *   PKCE and (OpenID Connect) a `nonce`, kept in a sealed, HttpOnly cookie of this browser;
 * - `GET /connect/:provider/callback` (`auth.connect`, the `redirectUri` registered at the provider): checks the
 *   answer against that cookie, redeems the code, and redirects to the frontend's `callback` with `?access_token=`
 *   (or `?error=`), as Strapi's grant middleware does;
 * - `GET /auth/:provider/callback?access_token=` (`auth.callback`): reads the profile from the provider, finds or
 *   creates the user (connect-account.ts) and answers `{ jwt, user }` as `POST /auth/local` does (in session mode
 *   `{ jwt, refreshToken, user }` of a new session).
 * Each is rate limited as Strapi's `/connect/*` routes.
 *
 * @example
 * connectRoutes(ctx, ctx.options.providers, router, route, answer); // in usersRoutes, with its wrappers
 */
export function connectRoutes(ctx: AccountsContext, providers: ReadonlyMap<string, ResolvedProvider>, router: Router, route: RouteFactory, answer: AuthAnswer): void {
  const clients = new Map<string, Connectable>([...providers].map(([name, provider]) => [name, { provider, client: createOAuthClient(provider, ctx.logger) }]));
  const deps: ConnectDeps = {
    ctx,
    answer,
    sealer: createStateSealer(ctx.options.jwtSecret),
    enabled(req) {
      const found = clients.get(String(req.params.provider));
      if (!found?.provider.enabled) throw new ApplicationError('This provider is disabled');
      return found;
    },
  };
  router.route('/connect/:provider').get(route('auth.connect', connect(deps), true)).all(methodNotAllowed(['GET']));
  router.route('/connect/:provider/callback').get(route('auth.connect', providerCallback(deps), true)).all(methodNotAllowed(['GET']));
  router.route('/auth/:provider/callback').get(route('auth.callback', authCallback(deps), true)).all(methodNotAllowed(['GET']));
}
