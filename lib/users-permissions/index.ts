import type { IncomingMessage } from 'node:http';
import type { Request, Router } from 'express';
import { UnauthorizedError } from '../errors';
import type { Logger } from '../errors/logger';
import type { Engine, IndexSpec } from '../engine';
import type { RestLimits } from '../query';
import type { Registry } from '../schema';
import type { AccountsContext } from './accounts';
import { RATE_LIMIT_COLLECTION, SESSIONS_COLLECTION, usersContentTypes } from './content-types';
import { createMailer } from './email';
import { createJwtService } from './jwt';
import { createPluginStore } from './plugin-store';
import { createRateLimiter, RATE_LIMIT_INDEXES } from './rate-limit';
import { createRolesService } from './roles';
import { usersRoutes } from './routes';
import { createSessionManager, SESSION_INDEXES } from './sessions';
import { resolveUsersOptions, type ResolvedUsersOptions } from './users-options';

export type { UsersOptions, UsersRoleOption, UsersEmail, UsersEmailSender, UsersSessionsOption } from './users-options';
export type { UsersProviderOption } from './connect/providers-options';
export { USER_UID, ROLE_UID } from './content-types';
export { hashPassword, verifyPassword } from './passwords';

type Row = Record<string, unknown>;

/** The caller a users-permissions JWT stands for: the user's role's actions. */
export interface UsersCaller {
  readonly actions: readonly string[];
  /** The ability's subject: `users-permissions`. */
  readonly subject: string;
}

/** A user as the model endpoint tells it (never its password or tokens). */
export interface UsersUser {
  readonly id: number;
  readonly username: string;
  readonly email: string;
  readonly role: { readonly name: string; readonly type: string } | null;
}

/** The plugin, built in two steps: its content types first (for the registry), then the rest (`start`). */
export interface UsersPermissionsPlugin {
  readonly options: ResolvedUsersOptions;
  /** The user and role definitions to add to the registry. */
  readonly contentTypes: readonly Record<string, unknown>[];
  /** Collections the plugin needs besides the registry's (the rate limit's). */
  readonly collections: readonly { name: string; indexes: readonly IndexSpec[] }[];
  start(deps: { registry: Registry; engine: Engine; rest: RestLimits; documentId?: () => string; logger: Logger }): UsersPermissionsRuntime;
}

/** The running plugin: authentication of JWTs, the Public role's grants, the routes, and the start-up seeding. */
export interface UsersPermissionsRuntime {
  /** The caller of a bearer token that is not an API token: its user's role, or a 401 (`Invalid credentials`). */
  authenticate(token: string, req: IncomingMessage): Promise<UsersCaller>;
  /** The Public role's actions (stored, seeded from `auth.public` and the plugin's defaults). */
  publicActions(): Promise<readonly string[]>;
  /** The user a request's JWT stands for (after `authenticate`), with its role's name and type; undefined for other callers. */
  describeUser(req: IncomingMessage): Promise<UsersUser | undefined>;
  /** Seeds the roles (after the engine has started). */
  seed(publicActions: readonly string[]): Promise<void>;
  routes(router: Router): void;
}

/**
 * Strapi's users-and-permissions plugin (`auth.users`, docs/users.md): register and log in (`/auth/*`), the
 * users' JWTs as bearer tokens, `/users`, and roles with their grants stored with the content.
 *
 * @example
 * const plugin = createUsersPermissions({ jwtSecret: process.env.JWT_SECRET! });
 * const registry = createRegistry({ contentTypes: [...types, ...plugin.contentTypes] });
 * const runtime = plugin.start({ registry, engine, rest, logger });
 */
export function createUsersPermissions(given: unknown): UsersPermissionsPlugin {
  const options = resolveUsersOptions(given);
  return {
    options,
    contentTypes: usersContentTypes(options.userAttributes),
    collections: [
      { name: RATE_LIMIT_COLLECTION, indexes: RATE_LIMIT_INDEXES },
      ...(options.jwtManagement === 'refresh' ? [{ name: SESSIONS_COLLECTION, indexes: SESSION_INDEXES }] : []),
    ],
    start: (deps) => startPlugin(options, deps),
  };
}

function startPlugin(options: ResolvedUsersOptions, deps: Parameters<UsersPermissionsPlugin['start']>[0]): UsersPermissionsRuntime {
  const store = createPluginStore(deps);
  const roles = createRolesService(deps.registry, store.roles, store.users);
  const jwt = createJwtService({ secret: options.jwtSecret, expiresIn: options.expiresIn });
  const mailer = createMailer(options.email);
  if (!mailer.configured) {
    deps.logger.warn('users-permissions: no e-mail sender (auth.users.email.send): reset-password and confirmation e-mails are not sent (docs/users.md)');
  }
  const sessions = options.jwtManagement === 'refresh' ? createSessionManager(deps.engine, { secret: options.jwtSecret, lifespans: options.sessions }) : undefined;
  const ctx: AccountsContext = { options, users: store.users, roles, jwt, mailer, logger: deps.logger, sessions };
  const limiter = options.ratelimit ? createRateLimiter(deps.engine, options.ratelimit) : undefined;
  const users = new WeakMap<IncomingMessage, Row>();
  const sessionIds = new WeakMap<IncomingMessage, string>();
  return {
    async authenticate(token, req) {
      // Session mode: an access token of a live session (sessions.ts), never a legacy `{ id }` JWT.
      const caller = sessions ? await sessions.verifyAccess(token) : undefined;
      const payload = sessions ? (caller ? { id: caller.userId } : null) : jwt.verify(token);
      if (!payload || payload.id === undefined) throw new UnauthorizedError();
      // Strapi looks the id up as the database gives it: a number, or the same number as a string.
      const id = typeof payload.id === 'string' && /^\d{1,15}$/.test(payload.id) ? Number(payload.id) : payload.id;
      const user = typeof id === 'number' ? await store.users.rowById(id) : undefined;
      // Strapi's session mode reads an access token of a user that no longer exists as an invalid token.
      if (!user && sessions) throw new UnauthorizedError();
      if (!user || user.blocked === true || (options.emailConfirmation && user.confirmed !== true)) {
        throw new UnauthorizedError('Invalid credentials');
      }
      users.set(req, user);
      if (caller) sessionIds.set(req, caller.sessionId);
      return { actions: typeof user.role === 'string' ? await roles.actionsOf(user.role) : [], subject: 'users-permissions' };
    },
    publicActions: () => roles.publicActions(),
    async describeUser(req) {
      const user = users.get(req);
      if (!user) return undefined;
      const role = typeof user.role === 'string' ? await store.roles.rowWhere({ documentId: user.role }) : undefined;
      return {
        id: user.id as number,
        username: String(user.username ?? ''),
        email: String(user.email ?? ''),
        role: role ? { name: String(role.name ?? ''), type: String(role.type ?? '') } : null,
      };
    },
    async seed(publicActions) {
      await roles.seed(publicActions, options.roles);
      if (!(await roles.byType(options.defaultRole))) {
        deps.logger.warn(`users-permissions: the default role "${options.defaultRole}" does not exist: registering answers 400 until it does`);
      }
    },
    routes: (router) => {
      const currentUser = (req: Request): Row | undefined => users.get(req);
      const currentSession = (req: Request): string | undefined => sessionIds.get(req);
      usersRoutes({ ctx, registry: deps.registry, limiter, currentUser, sessions: { options, sessions, currentUser, currentSession } }, router);
    },
  };
}
