/** What a provider answers about its user: the two things Strapi keeps. */
export interface ProviderProfile {
  readonly username: string | undefined;
  readonly email: string | undefined;
}

/** How a provider's profile is read: `userinfo` (OpenID Connect claims) or a built-in provider's own API. */
export type ProfileKind = 'userinfo' | 'github' | 'google' | 'discord';

/** A built-in provider: its endpoints, Strapi's default scopes, and how its profile is read. */
export interface ProviderPreset {
  /** The `issuer` of its server metadata (checked against an ID token's `iss` when one comes back). */
  readonly issuer: string;
  readonly authorization: string;
  readonly token: string;
  /** Where the profile is read with the access token. */
  readonly userinfo: string;
  readonly scope: readonly string[];
  readonly profile: ProfileKind;
}

/**
 * The providers known by name, with Strapi's default scopes (`server/bootstrap/grant-config.js`). Others (Auth0,
 * Keycloak, Cognito, Microsoft Entra, GitLab...) are OpenID Connect issuers: `issuer` in their options.
 */
export const PRESETS: ReadonlyMap<string, ProviderPreset> = new Map([
  ['github', {
    issuer: 'https://github.com',
    authorization: 'https://github.com/login/oauth/authorize',
    token: 'https://github.com/login/oauth/access_token',
    userinfo: 'https://api.github.com/user',
    scope: ['user', 'user:email'],
    profile: 'github',
  }],
  ['google', {
    issuer: 'https://accounts.google.com',
    authorization: 'https://accounts.google.com/o/oauth2/v2/auth',
    token: 'https://oauth2.googleapis.com/token',
    userinfo: 'https://www.googleapis.com/oauth2/v3/userinfo',
    scope: ['email'],
    profile: 'google',
  }],
  ['discord', {
    issuer: 'https://discord.com',
    authorization: 'https://discord.com/oauth2/authorize',
    token: 'https://discord.com/api/oauth2/token',
    userinfo: 'https://discord.com/api/users/@me',
    scope: ['identify', 'email'],
    profile: 'discord',
  }],
] as const);

type Json = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const localPart = (email: string | undefined): string | undefined => (email ? email.split('@')[0] : undefined);
/** An e-mail the provider says it has not verified is not used (an account could be claimed by anyone typing it). */
const verified = (email: string | undefined, flag: unknown): string | undefined => (flag === false || flag === 'false' ? undefined : email);

/**
 * The profile of a provider's answer, as Strapi's providers registry maps it (`server/services/providers-registry.js`):
 * GitHub's `login` and public or primary e-mail, Google's address and its local part, Discord's `username#discriminator`,
 * and an OpenID Connect userinfo's (or another server's JSON profile's) `preferred_username` (else `username`, `login`,
 * `nickname`, `name`, the e-mail's local part). An
 * address the provider marks unverified (`email_verified`, Discord's and GitHub's `verified`) is left out.
 *
 * @example
 * mapProfile('github', { login: 'octocat', email: 'octocat@github.com' }); // { username: 'octocat', email: 'octocat@github.com' }
 */
export function mapProfile(kind: ProfileKind, body: Json, emails?: unknown): ProviderProfile {
  switch (kind) {
    case 'github': {
      const primary = Array.isArray(emails) ? (emails as Json[]).find((e) => e?.primary === true && e.verified !== false) : undefined;
      return { username: text(body.login), email: text(body.email) ?? text(primary?.email) };
    }
    case 'google': {
      const email = verified(text(body.email), body.email_verified);
      return { username: localPart(email), email };
    }
    case 'discord':
      return { username: text(body.username) ? `${body.username as string}#${String(body.discriminator)}` : undefined, email: verified(text(body.email), body.verified) };
    case 'userinfo': {
      const email = verified(text(body.email), body.email_verified);
      return { username: text(body.preferred_username) ?? text(body.username) ?? text(body.login) ?? text(body.nickname) ?? text(body.name) ?? localPart(email), email };
    }
  }
}
