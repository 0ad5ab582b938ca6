import { createUsersPermissions } from '../../../lib/users-permissions';
import { mapProfile } from '../../../lib/users-permissions/connect/presets';

const base = { key: 'id', secret: 'secret', callback: 'https://www.example.com/connect/x/redirect' };
const build = (providers: Record<string, unknown>): unknown => createUsersPermissions({ jwtSecret: 's'.repeat(32), providers });

describe('auth.users.providers', () => {
  it('applies the built-in providers\' endpoints and Strapi\'s default scopes', () => {
    const { providers } = createUsersPermissions({
      jwtSecret: 's'.repeat(32),
      providers: {
        github: { ...base, redirectUri: 'https://api.example.com/api/connect/github/callback' },
        google: { ...base, redirectUri: 'https://api.example.com/api/connect/google/callback' },
        discord: { ...base, redirectUri: 'https://api.example.com/api/connect/discord/callback', enabled: false },
        keycloak: { ...base, redirectUri: 'https://api.example.com/api/connect/keycloak/callback', issuer: 'https://id.example.com/realms/site' },
      },
    }).options;
    expect(providers.get('github')).toMatchObject({ enabled: true, scope: ['user', 'user:email'], profile: 'github', endpoints: { token: 'https://github.com/login/oauth/access_token' } });
    expect(providers.get('google')).toMatchObject({ scope: ['email'], profile: 'google' });
    expect(providers.get('discord')).toMatchObject({ enabled: false, scope: ['identify', 'email'], profile: 'discord' });
    expect(providers.get('keycloak')).toMatchObject({ issuer: 'https://id.example.com/realms/site', scope: ['openid', 'email', 'profile'], profile: 'userinfo' });
  });

  it('derives each redirectUri from auth.users.url (as Strapi from server.url), unless given', () => {
    const { providers } = createUsersPermissions({
      jwtSecret: 's'.repeat(32),
      url: 'https://api.example.com/api/',
      providers: { github: base, google: { ...base, redirectUri: 'https://other.example.com/cms/api/connect/google/callback' } },
    }).options;
    expect(providers.get('github')?.redirectUri.href).toBe('https://api.example.com/api/connect/github/callback');
    expect(providers.get('google')?.redirectUri.href).toBe('https://other.example.com/cms/api/connect/google/callback');
  });

  it.each([
    ['a provider without redirectUri nor auth.users.url', { github: base }, /redirectUri is required without auth\.users\.url/],
    ['an unknown provider without issuer or endpoints', { gitlab: { ...base, redirectUri: 'https://api.example.com/api/connect/gitlab/callback' } }, /not a built-in provider/],
    ['a plain-http issuer off this machine', { sso: { ...base, redirectUri: 'https://a.example/api/connect/sso/callback', issuer: 'http://id.example.com' } }, /must be an https URL/],
    ['a redirect URI of another route', { github: { ...base, redirectUri: 'https://api.example.com/api/auth/github/callback' } }, /must be this server's \/connect\/github\/callback/],
    ['a relative redirect URI', { github: { ...base, redirectUri: '/api/connect/github/callback' } }, /must be an absolute URL/],
    ['a frontend callback that is not http(s)', { github: { ...base, callback: 'javascript:alert(1)', redirectUri: 'https://a.example/api/connect/github/callback' } }, /must be an http\(s\) URL/],
    ['the reserved name local', { local: { ...base, redirectUri: 'https://a.example/api/connect/local/callback', issuer: 'https://id.example.com' } }, /auth\.users\.providers/],
    ['a missing secret', { github: { key: 'id', callback: base.callback, redirectUri: 'https://a.example/api/connect/github/callback' } }, /secret/],
    ['an unknown key', { github: { ...base, redirectUri: 'https://a.example/api/connect/github/callback', subdomain: 'x' } }, /subdomain/],
  ])('refuses %s at start-up (CR_INVALID_OPTIONS)', (_what, providers, message) => {
    expect(() => build(providers)).toThrow(expect.objectContaining({ code: 'CR_INVALID_OPTIONS', message: expect.stringMatching(message) }));
  });
});

describe('mapProfile', () => {
  it.each([
    ['github: the public address', 'github', { login: 'octocat', email: 'octo@github.com' }, undefined, { username: 'octocat', email: 'octo@github.com' }],
    ['github: the primary verified address', 'github', { login: 'octocat', email: null }, [{ email: 'a@x.io', primary: false, verified: true }, { email: 'b@x.io', primary: true, verified: true }], { username: 'octocat', email: 'b@x.io' }],
    ['github: an unverified primary address', 'github', { login: 'octocat', email: null }, [{ email: 'b@x.io', primary: true, verified: false }], { username: 'octocat', email: undefined }],
    ['google: the local part', 'google', { email: 'jane.doe@gmail.com', email_verified: true }, undefined, { username: 'jane.doe', email: 'jane.doe@gmail.com' }],
    ['discord: username#discriminator', 'discord', { username: 'wumpus', discriminator: '0', email: 'w@discord.gg', verified: true }, undefined, { username: 'wumpus#0', email: 'w@discord.gg' }],
    ['discord: an unverified address', 'discord', { username: 'wumpus', discriminator: '0', email: 'w@discord.gg', verified: false }, undefined, { username: 'wumpus#0', email: undefined }],
    ['userinfo: preferred_username', 'userinfo', { sub: '1', preferred_username: 'kc-user', name: 'K C', email: 'k@c.io' }, undefined, { username: 'kc-user', email: 'k@c.io' }],
    ['userinfo: the local part when no name', 'userinfo', { sub: '1', email: 'k@c.io', email_verified: true }, undefined, { username: 'k', email: 'k@c.io' }],
    ['userinfo: email_verified false', 'userinfo', { sub: '1', email: 'k@c.io', email_verified: false }, undefined, { username: undefined, email: undefined }],
    ['userinfo: no e-mail at all', 'userinfo', { sub: '1', nickname: 'nick' }, undefined, { username: 'nick', email: undefined }],
    ['userinfo: hostile types', 'userinfo', { email: { $ne: null }, preferred_username: ['a'] }, undefined, { username: undefined, email: undefined }],
  ] as const)('%s', (_what, kind, body, emails, expected) => {
    expect(mapProfile(kind, body as Record<string, unknown>, emails)).toEqual(expected);
  });
});
