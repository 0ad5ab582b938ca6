import type * as OpenId from 'openid-client';
import type { Logger } from '../../errors/logger';
import { isLoopback, type ResolvedProvider } from './providers-options';
import { mapProfile, type ProviderProfile } from './presets';

type OpenIdClient = typeof OpenId;
let loaded: OpenIdClient | undefined;

/**
 * openid-client (panva), loaded on first use: an app without providers never loads it. It is an ES module, which
 * Node >= 20.19 (this package's `engines`) loads with `require`.
 */
function openid(): OpenIdClient {
  loaded ??= require('openid-client') as OpenIdClient;
  return loaded;
}

/** What the flow holds between `/connect/<name>` and the provider's return: the checks of the answer. */
export interface AuthorizationChecks {
  readonly state: string;
  readonly codeVerifier: string;
  /** Sent to OpenID Connect issuers only, and then the ID token must carry it. */
  readonly nonce?: string;
}

/** An OAuth 2 / OpenID Connect client of one provider, on openid-client. */
export interface OAuthClient {
  /** The URL of the provider's authorization endpoint for a new login, and its checks (state, PKCE, nonce). */
  authorizationUrl(): Promise<{ url: URL; checks: AuthorizationChecks }>;
  /**
   * Redeems the authorization response (`query`, the raw query string of `/connect/<name>/callback`) after checking
   * it against `checks` (state, issuer, PKCE, and the ID token and its nonce for an issuer): the access token.
   */
  redeem(query: string, checks: AuthorizationChecks): Promise<string>;
  /** The user's profile read with `accessToken` from the provider (its userinfo, or GitHub's and Discord's API). */
  profile(accessToken: string): Promise<ProviderProfile>;
}

/** How long one request to a provider may take, in seconds (openid-client's default is 30). */
const TIMEOUT_SECONDS = 10;

/** The provider's openid-client Configuration: discovered from its issuer, or made from its endpoints. */
async function configure(provider: ResolvedProvider): Promise<OpenId.Configuration> {
  const client = openid();
  const auth = provider.tokenEndpointAuthMethod === 'client_secret_basic' ? client.ClientSecretBasic(provider.secret) : client.ClientSecretPost(provider.secret);
  const insecure = (url: string | undefined): boolean => url !== undefined && new URL(url).protocol === 'http:' && isLoopback(new URL(url));
  const { endpoints } = provider;
  let config: OpenId.Configuration;
  if (provider.issuer !== undefined) {
    const execute = insecure(provider.issuer) ? [client.allowInsecureRequests] : [];
    config = await client.discovery(new URL(provider.issuer), provider.key, undefined, auth, { execute, timeout: TIMEOUT_SECONDS });
  } else {
    const metadata = { issuer: new URL(endpoints.authorization!).origin, authorization_endpoint: endpoints.authorization, token_endpoint: endpoints.token, userinfo_endpoint: endpoints.userinfo };
    config = new client.Configuration(metadata, provider.key, undefined, auth);
    if ([endpoints.authorization, endpoints.token, endpoints.userinfo].some(insecure)) client.allowInsecureRequests(config);
  }
  config.timeout = TIMEOUT_SECONDS;
  return config;
}

/**
 * The client of one provider. Its configuration (a discovery request for an issuer) is made on first use and kept;
 * a failed discovery is tried again by the next request. Every protocol step is openid-client's: the authorization
 * URL with `state`, PKCE (S256) and, for an issuer, a `nonce`; the code exchange, which checks `state`, `iss` and the
 * ID token; the userinfo request.
 *
 * @example
 * const client = createOAuthClient(provider, logger);
 * const { url, checks } = await client.authorizationUrl();
 */
export function createOAuthClient(provider: ResolvedProvider, logger: Logger): OAuthClient {
  let pending: Promise<OpenId.Configuration> | undefined;
  const config = (): Promise<OpenId.Configuration> => {
    pending ??= configure(provider).catch((error: unknown) => {
      pending = undefined;
      logger.warn(`users-permissions: provider "${provider.name}" could not be configured: ${String(error)}`);
      throw error;
    });
    return pending;
  };
  const oidc = provider.issuer !== undefined && provider.scope.includes('openid');
  return {
    async authorizationUrl() {
      const client = openid();
      const c = await config();
      const checks = { state: client.randomState(), codeVerifier: client.randomPKCECodeVerifier(), ...(oidc ? { nonce: client.randomNonce() } : {}) };
      const parameters: Record<string, string> = {
        redirect_uri: provider.redirectUri.href,
        scope: provider.scope.join(' '),
        state: checks.state,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
        ...(checks.nonce ? { nonce: checks.nonce } : {}),
      };
      return { url: client.buildAuthorizationUrl(c, parameters), checks };
    },
    async redeem(query, checks) {
      const c = await config();
      // The URL the provider answered to is the configured redirect URI (never the request's Host) with its query.
      const current = new URL(provider.redirectUri.href);
      current.search = query;
      const tokens = await openid().authorizationCodeGrant(c, current, {
        expectedState: checks.state,
        pkceCodeVerifier: checks.codeVerifier,
        ...(checks.nonce ? { expectedNonce: checks.nonce } : {}),
      });
      return tokens.access_token;
    },
    profile: async (accessToken) => readProfile(provider, await config(), accessToken),
  };
}

/**
 * The user's profile, read with `accessToken`: an issuer's userinfo (openid-client's request and checks), or the
 * JSON of `userinfoEndpoint` (GitHub's `/user`, then `/user/emails` when it has no public address; Discord's
 * `/users/@me`; another server's profile), mapped by presets.ts.
 */
async function readProfile(provider: ResolvedProvider, config: OpenId.Configuration, accessToken: string): Promise<ProviderProfile> {
  const client = openid();
  if (provider.issuer !== undefined) {
    // The access token may come from the frontend alone (Strapi's flow): no ID token whose subject to expect.
    return mapProfile('userinfo', (await client.fetchUserInfo(config, accessToken, client.skipSubjectCheck)) as Record<string, unknown>);
  }
  const read = async (url: string): Promise<unknown> => {
    const res = await client.fetchProtectedResource(config, accessToken, new URL(url), 'GET', undefined, new Headers({ accept: 'application/json' }));
    if (!res.ok) throw new ProviderRefusedError(res.status);
    return res.json();
  };
  const body = await read(provider.endpoints.userinfo!);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ProviderRefusedError(200);
  const profile = body as Record<string, unknown>;
  const emails = provider.profile === 'github' && typeof profile.email !== 'string' ? await read(`${provider.endpoints.userinfo!}/emails`) : undefined;
  return mapProfile(provider.profile, profile, emails);
}

/** The provider answered a profile request with an error status (a bad or expired access token). */
export class ProviderRefusedError extends Error {
  constructor(readonly status: number) {
    super(`the provider answered ${status}`);
  }
}
