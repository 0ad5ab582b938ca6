import type { AuthOptions } from './auth';
import type { Engine } from './engine';
import type { Registry } from './schema';

/**
 * The one line logged when the engine has started: what runs, so that a wrong database, a forgotten data file or
 * an auth configuration that opens everything is seen at a glance. No secret: the engine's description redacts
 * credentials, tokens are counted, never named.
 *
 * @example
 * describeStartUp(registry, engine, options.auth);
 * // 'content-router: ready: memory (file .data/content.db); 7 content types, 5 components; locales en (default), fr;
 * //  auth: Public role 9 actions, 2 API tokens'
 */
export function describeStartUp(registry: Registry, engine: Engine, auth: AuthOptions | undefined): string {
  const types = [...registry.contentTypes.values()].filter((t) => !t.internal).length;
  const components = registry.components.size;
  const { locales, defaultLocale } = registry.i18n;
  const localeList = locales.map((l) => (l === defaultLocale ? `${l} (default)` : l)).join(', ');
  return (
    `content-router: ready: ${engine.describe?.() ?? engine.name}; ${count(types, 'content type')}, ${count(components, 'component')}; ` +
    `locales ${localeList}; auth: ${describeAuth(auth)}`
  );
}

function describeAuth(auth: AuthOptions | undefined): string {
  if (auth?.public === 'all') return "OPEN, every caller may do everything (public: 'all', local development only)";
  const parts: string[] = [];
  const actions = auth?.public?.actions?.length ?? 0;
  if (actions > 0) parts.push(`Public role ${count(actions, 'action')}`);
  const tokens = auth?.apiTokens?.length ?? 0;
  if (tokens > 0) parts.push(count(tokens, 'API token'));
  if (auth?.resolve) parts.push("the host's users (resolve)");
  if (auth?.users) parts.push(auth.users.jwtManagement === 'refresh' ? 'users-permissions (register, log in, sessions with refresh tokens)' : 'users-permissions (register, log in, JWTs)');
  return parts.length > 0 ? parts.join(', ') : 'nothing allowed (no Public role actions, no API token): every route answers 403';
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
