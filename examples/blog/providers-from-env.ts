import type { UsersProviderOption } from '../../lib';

/** The providers known by name, whose `<NAME>_CLIENT_ID` and `<NAME>_CLIENT_SECRET` turn them on. */
const NAMED = ['github', 'google', 'discord'] as const;

/**
 * The example's social-login providers (docs/users.md#social-login), from the environment only, so that no client
 * secret is ever committed: `GITHUB_CLIENT_ID` and `GITHUB_CLIENT_SECRET` (likewise `GOOGLE_`, `DISCORD_`) turn on
 * that provider; `OIDC_ISSUER`, `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET` an OpenID Connect server named `oidc`.
 * Register `<publicUrl>/connect/<name>/callback` at the provider: the router derives each provider's `redirectUri`
 * from `auth.users.url` (`publicUrl`, the example's `PUBLIC_URL`); without one it is `http://localhost:<PORT>/api/...`.
 * `FRONTEND_URL` is the frontend whose `/connect/<name>/redirect` page finishes the login (default
 * `http://localhost:3000`). None set: no provider.
 *
 * @example
 * users: { jwtSecret, url: publicUrl, providers: providersFromEnv(process.env, publicUrl) }
 */
export function providersFromEnv(env: NodeJS.ProcessEnv, publicUrl: string | undefined): Record<string, UsersProviderOption> {
  const frontend = (env.FRONTEND_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
  const urls = (name: string): Pick<UsersProviderOption, 'redirectUri' | 'callback'> => ({
    ...(publicUrl ? {} : { redirectUri: `http://localhost:${env.PORT ?? 1337}/api/connect/${name}/callback` }),
    callback: `${frontend}/connect/${name}/redirect`,
  });
  const providers: Record<string, UsersProviderOption> = {};
  for (const name of NAMED) {
    const key = env[`${name.toUpperCase()}_CLIENT_ID`];
    const secret = env[`${name.toUpperCase()}_CLIENT_SECRET`];
    if (key && secret) providers[name] = { key, secret, ...urls(name) };
  }
  if (env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET) {
    providers.oidc = { issuer: env.OIDC_ISSUER, key: env.OIDC_CLIENT_ID, secret: env.OIDC_CLIENT_SECRET, scope: ['openid', 'email', 'profile'], ...urls('oidc') };
  }
  return providers;
}
