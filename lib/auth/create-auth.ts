import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { emitWarning, UnauthorizedError } from '../errors';
import type { Registry } from '../schema';
import type { AuthOptions, ResolvedCaller } from './auth-options';
import { DEFAULT_DRAFTS_RULE, PUBLIC_ALL, validateAuthOptions } from './auth-options';
import { checkActions } from './check-actions';
import type { AbilityOptions } from './create-ability';
import { abilityFromActions, createAbility, isReadAction } from './create-ability';
import type { StoredToken, TokenStore } from './create-token-store';
import { createTokenStore } from './create-token-store';
import { extractBearerToken } from './extract-bearer-token';
import { warnShortAccessKeys } from './short-access-keys';
import type { Ability, Authenticator } from './types';

/** What `createAuth` may take besides the options: a clock for expiry (tests inject one), the users' JWTs. */
export interface AuthDependencies {
  now?: () => number;
  /**
   * The users-permissions plugin (`auth.users`): a bearer token that is not an API token is its JWT (a 401 when
   * it is not valid, `Invalid credentials` for a blocked or deleted user), and the Public role's grants are the
   * stored Public role's.
   */
  users?: {
    authenticate(token: string, req: IncomingMessage): Promise<{ readonly actions: readonly string[]; readonly subject: string }>;
    publicActions(): Promise<readonly string[]>;
  };
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
  const tokenTypes = new Map<Ability, StoredToken['type']>([...tokenAbilities].map(([t, ability]) => [ability, t.type]));
  const scopes = createScopes();
  const users = deps.users;
  const roleAbility = createRoleAbilities(abilityOptions);
  /** A users-permissions JWT: its user's role, or null when `resolve` may still recognise the token. */
  const fromJwt = async (token: string, req: IncomingMessage): Promise<Ability | null> => {
    try {
      const caller = await users!.authenticate(token, req);
      return roleAbility(caller.actions, caller.subject);
    } catch (error) {
      if (!resolve || (error instanceof UnauthorizedError && error.message === 'Invalid credentials')) throw error;
      return null;
    }
  };
  /** The Public role: the stored one with users-permissions (unless `public: 'all'`), else the option's. */
  const publicRole = async (): Promise<Ability> =>
    users && options.public !== PUBLIC_ALL ? roleAbility(await users.publicActions(), 'public') : publicAbility;
  const resolved = async (req: IncomingMessage): Promise<Ability | undefined> => {
    if (!resolve) return undefined;
    const caller = await resolve(req);
    return caller ? abilityOfCaller(caller, abilityOptions, scopes) : undefined;
  };

  const findToken = connectionTokenMemo(store);
  /** The answer when `resolve` is not needed: a configured token (or 401), or the Public role without `resolve`. */
  const known = (req: IncomingMessage): Ability | undefined => {
    const presented = extractBearerToken(req.headers.authorization);
    if (presented === null) return resolve || users ? undefined : publicAbility;
    const token = findToken(presented, req.socket);
    if (token) {
      if (token.expiresAt !== null && token.expiresAt <= now()) throw new UnauthorizedError();
      return tokenAbilities.get(token)!;
    }
    if (!resolve && !users) throw new UnauthorizedError();
    return undefined;
  };

  return Object.freeze({
    authenticateSync: known,
    tokenType: (ability: Ability) => tokenTypes.get(ability),
    async authenticate(req: IncomingMessage): Promise<Ability> {
      const sync = known(req);
      if (sync) return sync;
      // As Strapi's strategies: an API token first (above), then a users-permissions JWT, then the host's `resolve`.
      const presented = extractBearerToken(req.headers.authorization);
      const ability = (presented !== null && users ? await fromJwt(presented, req) : null) ?? (await resolved(req));
      if (ability) return ability;
      // Nobody recognised the request: the Public role without a token, 401 with an unknown one.
      if (presented === null) return publicRole();
      throw new UnauthorizedError();
    },
  });
}

/**
 * `store.find`, remembering per connection the last API token found: a client on a kept-alive connection sends the
 * same `Authorization` header with each request, and its HMAC-SHA512 (create-token-store.ts) was most of what
 * authenticating it cost. The token presented is compared with the remembered one in constant time
 * (`timingSafeEqual`; a length that differs is looked up afresh), so that a connection a proxy shares between
 * clients tells one nothing of another's token; only tokens the store found are remembered, and expiry is still
 * checked per request by the caller. The memory is the connection's: dropped with the socket (a WeakMap).
 */
function connectionTokenMemo(store: TokenStore): (presented: string, socket: object | null | undefined) => StoredToken | undefined {
  /** The token found last on a connection, its bytes, and a buffer of their length the next one is written into. */
  const last = new WeakMap<object, { presented: Buffer; scratch: Buffer; token: StoredToken }>();
  return (presented, socket) => {
    if (!socket) return store.find(presented);
    const seen = last.get(socket);
    // Written into the remembered token's own scratch buffer when it has as many bytes (then all of it is written):
    // no Buffer allocated per request. Nothing runs between the write and the compare.
    if (seen && Buffer.byteLength(presented, 'utf8') === seen.presented.length) {
      seen.scratch.write(presented, 'utf8');
      if (timingSafeEqual(seen.presented, seen.scratch)) return seen.token;
    }
    const token = store.find(presented);
    if (token) {
      const bytes = Buffer.from(presented, 'utf8');
      last.set(socket, { presented: bytes, scratch: Buffer.alloc(bytes.length), token });
    }
    return token;
  };
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

/**
 * One ability per distinct set of actions (a role's grants as stored now), so that the users of one role share it
 * (and the parsed queries and document services kept per ability). At most {@link MAX_SCOPES} are kept.
 */
function createRoleAbilities(options: AbilityOptions): (actions: readonly string[], subject: string) => Ability {
  const abilities = new Map<string, Ability>();
  return (actions, subject) => {
    const key = `${subject}\n${[...new Set(actions)].sort().join('\n')}`;
    let ability = abilities.get(key);
    if (!ability) {
      if (abilities.size >= MAX_SCOPES) abilities.delete(abilities.keys().next().value!);
      abilities.set(key, (ability = abilityFromActions(actions, subject, options)));
    }
    return ability;
  };
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
