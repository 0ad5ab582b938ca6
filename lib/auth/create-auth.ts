import type { IncomingMessage } from 'node:http';
import { emitWarning, UnauthorizedError } from '../errors';
import type { Registry } from '../schema';
import type { AuthOptions, ResolvedCaller } from './auth-options';
import { DEFAULT_DRAFTS_RULE, PUBLIC_ALL, validateAuthOptions } from './auth-options';
import { checkActions } from './check-actions';
import type { AbilityOptions } from './create-ability';
import { abilityFromActions, createAbility, isReadAction } from './create-ability';
import type { StoredToken } from './create-token-store';
import { createTokenStore } from './create-token-store';
import { extractBearerToken } from './extract-bearer-token';
import { warnShortAccessKeys } from './short-access-keys';
import type { Ability, Authenticator } from './types';

/** What `createAuth` may take besides the options: a clock for expiry (tests inject one). */
export interface AuthDependencies {
  now?: () => number;
}

/**
 * Builds the authenticator of `options.auth`, validated once at startup (CR_INVALID_OPTIONS naming the field).
 * Content types are private by default (the spec, section 5): without options (or with `{}`) nothing is allowed,
 * and a request may do only what it is granted:
 * - `Authorization: Bearer <token>` of a configured API token: that token's abilities (401 once expired);
 * - any other bearer token: `resolve(req)` may recognise it (the app's own JWT), else 401;
 * - no token or a malformed header: `resolve(req)` when given and it answers, else the Public role.
 *
 * `public: 'all'` grants the Public role every action (local development), and emits the `CR_AUTH_OPEN` warning
 * once per call, i.e. once per router. Plain access keys shorter than Strapi's generated ones emit
 * `CR_SHORT_ACCESS_KEY` (short-access-keys.ts).
 *
 * @example
 * ```ts
 * const auth = createAuth({ public: { actions: ['api::article.article.find'] }, apiTokens: [...] }, registry);
 * const ability = await auth.authenticate(req);
 * ability.can('api::article.article.create');
 * ```
 */
export function createAuth(options: AuthOptions | undefined, registry: Registry, deps: AuthDependencies = {}): Authenticator {
  if (options === undefined) options = {};
  validateAuthOptions(options);
  const tokens = options.apiTokens ?? [];
  tokens.forEach((t, i) => checkActions(t.permissions ?? [], `auth.apiTokens[${i}].permissions`, registry));
  const abilityOptions: AbilityOptions = { drafts: options.drafts ?? DEFAULT_DRAFTS_RULE };
  const publicAbility = createPublicAbility(options.public, registry, abilityOptions);
  const store = createTokenStore(tokens, options.salt);
  warnShortAccessKeys(tokens);
  const now = deps.now ?? Date.now;
  const resolve = options.resolve;

  const tokenAbilities = new Map<StoredToken, Ability>(store.tokens.map((t) => [t, abilityOfToken(t, abilityOptions)]));
  const scopes = createScopes();
  const resolved = async (req: IncomingMessage): Promise<Ability | undefined> => {
    if (!resolve) return undefined;
    const caller = await resolve(req);
    return caller ? abilityOfCaller(caller, abilityOptions, scopes) : undefined;
  };

  /** The answer when `resolve` is not needed: a configured token (or 401), or the Public role without `resolve`. */
  const known = (req: IncomingMessage): Ability | undefined => {
    const presented = extractBearerToken(req.headers.authorization);
    if (presented === null) return resolve ? undefined : publicAbility;
    const token = store.find(presented);
    if (token) {
      if (token.expiresAt !== null && token.expiresAt <= now()) throw new UnauthorizedError();
      return tokenAbilities.get(token)!;
    }
    if (!resolve) throw new UnauthorizedError();
    return undefined;
  };

  return Object.freeze({
    authenticateSync: known,
    async authenticate(req: IncomingMessage): Promise<Ability> {
      const ability = known(req) ?? (await resolved(req));
      if (ability) return ability;
      // `resolve` did not recognise the request: the Public role without a token, 401 with an unknown one.
      if (extractBearerToken(req.headers.authorization) === null) return publicAbility;
      throw new UnauthorizedError();
    },
  });
}

/** The Public role: nothing by default, the listed actions, or everything with `'all'` (warned about). */
function createPublicAbility(role: AuthOptions['public'], registry: Registry, options: AbilityOptions): Ability {
  if (role !== PUBLIC_ALL) {
    checkActions(role?.actions ?? [], 'auth.public.actions', registry);
    return abilityFromActions(role?.actions ?? [], 'public', options);
  }
  emitWarning(
    'CR_AUTH_OPEN',
    `auth.public: '${PUBLIC_ALL}' lets every caller without a token do everything, deletes and uploads included. ` +
      'Use it for local development only; list the Public role\'s actions in production (see docs/security.md).',
  );
  return createAbility(() => true, 'public', options);
}

function abilityOfToken(token: StoredToken, options: AbilityOptions): Ability {
  const subject = `api-token:${token.name}`;
  switch (token.type) {
    case 'full-access':
      return createAbility(() => true, subject, options);
    case 'read-only':
      return createAbility(isReadAction, subject, options);
    case 'custom':
      return abilityFromActions(token.permissions, subject, options);
  }
}

function abilityOfCaller(caller: ResolvedCaller, options: AbilityOptions, scopes: (actions: readonly string[]) => object): Ability {
  const { actions, subject } = caller;
  if (!Array.isArray(actions) || !actions.every((a) => typeof a === 'string')) {
    throw new TypeError('auth.resolve must answer { actions: string[] } or null');
  }
  return abilityFromActions(actions, typeof subject === 'string' && subject !== '' ? subject : 'user', options, scopes(actions));
}

/** How many distinct action sets of `resolve` callers keep a shared scope (the oldest is dropped first). */
const MAX_SCOPES = 1024;

/**
 * One scope object per distinct action set (see Ability.scope): the users of one role share their parsed queries.
 * At most {@link MAX_SCOPES} are kept; a caller whose set was dropped simply gets a new scope.
 */
function createScopes(): (actions: readonly string[]) => object {
  const scopes = new Map<string, object>();
  return (actions) => {
    const key = [...new Set(actions)].sort().join('\n');
    let scope = scopes.get(key);
    if (!scope) {
      if (scopes.size >= MAX_SCOPES) scopes.delete(scopes.keys().next().value!);
      scopes.set(key, (scope = {}));
    }
    return scope;
  };
}
