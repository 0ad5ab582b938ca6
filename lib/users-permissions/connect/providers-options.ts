import { ConfigurationError } from '../../errors';
import { PRESETS, type ProviderPreset } from './presets';

/**
 * One social-login provider of `auth.users.providers` (Strapi's "Providers" settings, its `grant` store): GitHub,
 * Google and Discord by name, or any OAuth 2 / OpenID Connect server by `issuer` or endpoints. See docs/users.md.
 *
 * @example
 * providers: {
 *   github: {
 *     key: process.env.GITHUB_CLIENT_ID!, secret: process.env.GITHUB_CLIENT_SECRET!,
 *     redirectUri: 'https://api.example.com/api/connect/github/callback',
 *     callback: 'https://www.example.com/connect/github/redirect',
 *   },
 * }
 */
export interface UsersProviderOption {
  /** Default true (Strapi's `enabled`): a disabled provider answers `This provider is disabled`. */
  enabled?: boolean;
  /** The OAuth client id (Strapi's `key`). */
  key: string;
  /** The OAuth client secret (Strapi's `secret`). */
  secret: string;
  /**
   * Where the browser is sent once the provider has answered, with `?access_token=` (Strapi's `callback`, "the
   * redirect URL to your front-end app"). `GET /connect/<name>?callback=` may choose another URL of the same origin.
   */
  callback: string;
  /**
   * This server's `/connect/<name>/callback`, as registered at the provider: default `<auth.users.url>/connect/<name>/callback`
   * (Strapi builds it from `server.url` likewise), e.g. `https://api.example.com/api/connect/github/callback`.
   * Never taken from a request's `Host` header: without `auth.users.url`, it is required.
   */
  redirectUri?: string;
  /** The scopes asked for; default the preset's (Strapi's), or `openid email profile` for an `issuer`. */
  scope?: string[];
  /** An OpenID Connect issuer: its discovery document (`/.well-known/openid-configuration`) gives the endpoints. */
  issuer?: string;
  /** An OAuth 2 server without discovery (or a preset's endpoints replaced, as GitHub Enterprise's). */
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  /** Where the profile is read with the access token (an OpenID Connect userinfo endpoint, or GitHub's `/user`). */
  userinfoEndpoint?: string;
  /** How the client authenticates at the token endpoint; default `client_secret_post`. */
  tokenEndpointAuthMethod?: 'client_secret_post' | 'client_secret_basic';
}

/** A provider with its preset applied: every endpoint or the issuer known, and its scopes. */
export interface ResolvedProvider {
  readonly name: string;
  readonly enabled: boolean;
  readonly key: string;
  readonly secret: string;
  readonly callback: URL;
  readonly redirectUri: URL;
  readonly scope: readonly string[];
  /** How the profile is read: an OpenID Connect userinfo, or a preset's own API (GitHub, Discord). */
  readonly profile: ProviderPreset['profile'];
  readonly issuer: string | undefined;
  readonly endpoints: { readonly authorization?: string; readonly token?: string; readonly userinfo?: string };
  readonly tokenEndpointAuthMethod: 'client_secret_post' | 'client_secret_basic';
}

const URL_STRING = { type: 'string', minLength: 1, maxLength: 2048 } as const;

/** The ajv schema of `auth.users.providers` (part of users-options.ts's schema). */
export const PROVIDERS_SCHEMA = {
  type: 'object',
  propertyNames: { pattern: '^[a-z0-9][a-z0-9_-]{0,63}$', not: { enum: ['local', 'email'] } },
  additionalProperties: {
    type: 'object',
    additionalProperties: false,
    required: ['key', 'secret', 'callback'],
    properties: {
      enabled: { type: 'boolean' },
      key: { type: 'string', minLength: 1 },
      secret: { type: 'string', minLength: 1 },
      callback: URL_STRING,
      redirectUri: URL_STRING,
      scope: { type: 'array', items: { type: 'string', pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$' } },
      issuer: URL_STRING,
      authorizationEndpoint: URL_STRING,
      tokenEndpoint: URL_STRING,
      userinfoEndpoint: URL_STRING,
      tokenEndpointAuthMethod: { enum: ['client_secret_post', 'client_secret_basic'] },
    },
  },
} as const;

const invalid = (message: string): ConfigurationError => new ConfigurationError('CR_INVALID_OPTIONS', message);

/** Hosts that may be reached over plain http (a provider on this machine, as in development and the tests). */
export function isLoopback(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname);
}

function absoluteUrl(value: string, path: string, provider = false): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${path} must be an absolute URL (got "${value}")`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid(`${path} must be an http(s) URL`);
  if (provider && url.protocol === 'http:' && !isLoopback(url)) {
    throw invalid(`${path} must be an https URL (plain http only on this machine: localhost, 127.0.0.1)`);
  }
  if (url.hash !== '') throw invalid(`${path} cannot have a #fragment`);
  return url;
}

/** Checks one provider (already valid against PROVIDERS_SCHEMA) and applies its preset; `url` is `auth.users.url`. */
function resolveProvider(name: string, o: UsersProviderOption, url: string | null): ResolvedProvider {
  const path = `auth.users.providers.${name}`;
  const preset: ProviderPreset | undefined = o.issuer === undefined ? PRESETS.get(name) : undefined;
  const endpoints = {
    authorization: o.authorizationEndpoint ?? preset?.authorization,
    token: o.tokenEndpoint ?? preset?.token,
    userinfo: o.userinfoEndpoint ?? preset?.userinfo,
  };
  for (const [key, value] of Object.entries({ issuer: o.issuer, authorizationEndpoint: endpoints.authorization, tokenEndpoint: endpoints.token, userinfoEndpoint: endpoints.userinfo })) {
    if (value !== undefined) absoluteUrl(value, `${path}.${key}`, true);
  }
  if (o.issuer === undefined && (!endpoints.authorization || !endpoints.token || !endpoints.userinfo)) {
    throw invalid(
      `${path}: "${name}" is not a built-in provider (${[...PRESETS.keys()].join(', ')}): give its OpenID Connect issuer, ` +
        'or its authorizationEndpoint, tokenEndpoint and userinfoEndpoint',
    );
  }
  const given = o.redirectUri ?? (url === null ? undefined : `${url}/connect/${name}/callback`);
  if (given === undefined) {
    throw invalid(`${path}.redirectUri is required without auth.users.url: this server's /connect/${name}/callback as registered at the provider, e.g. https://api.example.com/api/connect/${name}/callback`);
  }
  const redirectUri = absoluteUrl(given, `${path}.redirectUri`);
  if (redirectUri.search !== '') throw invalid(`${path}.redirectUri cannot have a query string`);
  if (!redirectUri.pathname.endsWith(`/connect/${name}/callback`)) {
    throw invalid(`${path}.redirectUri must be this server's /connect/${name}/callback (as registered at the provider), e.g. https://api.example.com/api/connect/${name}/callback`);
  }
  return Object.freeze({
    name,
    enabled: o.enabled ?? true,
    key: o.key,
    secret: o.secret,
    callback: absoluteUrl(o.callback, `${path}.callback`),
    redirectUri,
    scope: Object.freeze([...(o.scope ?? preset?.scope ?? ['openid', 'email', 'profile'])]),
    profile: preset?.profile ?? 'userinfo',
    issuer: o.issuer,
    endpoints: Object.freeze(endpoints),
    tokenEndpointAuthMethod: o.tokenEndpointAuthMethod ?? 'client_secret_post',
  });
}

/**
 * `auth.users.providers` checked and resolved, by name (already valid against PROVIDERS_SCHEMA); `url` is
 * `auth.users.url` without its trailing slash (the default of each `redirectUri`), or null.
 */
export function resolveProviders(given: Record<string, UsersProviderOption> | undefined, url: string | null): ReadonlyMap<string, ResolvedProvider> {
  return new Map(Object.entries(given ?? {}).map(([name, o]) => [name, resolveProvider(name, o, url)]));
}
