import type { Request, RequestHandler, Response, Router } from 'express';
import type { Ability } from '../auth/types';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../errors';
import { assertSafeStructure } from '../schema/validate-body/body-errors';
import { methodNotAllowed } from '../http/error-handler';
import { getAbility, rawQueryString } from '../http/request-context';
import { parseRawQuery } from '../query';
import * as accounts from './accounts';
import type { AccountsContext, RequestUrls } from './accounts';
import { limitRequest } from './limit-request';
import type { RateLimiter } from './rate-limit';
import { createAuthAnswer, sessionRoutes, type SessionRoutesDeps } from './session-routes';
import { permissionsTree } from './role-actions';
import { connectRoutes } from './connect/connect-routes';
import type { Registry } from '../schema';
import { countUsers, createUser, deleteUser, findUser, findUsers, pathId, updateUser } from './user-admin';

type Row = Record<string, unknown>;

/** What the routes need besides the account flows. */
export interface UsersRoutesDeps {
  readonly ctx: AccountsContext;
  readonly registry: Registry;
  readonly limiter: RateLimiter | undefined;
  /** The authenticated user of the request (its JWT), if any. */
  readonly currentUser: (req: Request) => Row | undefined;
  /** Session mode's routes and answers (session-routes.ts). */
  readonly sessions: SessionRoutesDeps;
}

const UP = 'plugin::users-permissions';

type Handler = (req: Request, res: Response, ability: Ability) => Promise<void>;

/** E-mails' links from the options (`auth.users.url`), never from the request's `Host` header. */
const urlsOf = (ctx: AccountsContext): RequestUrls => ({ emailConfirmation: ctx.options.url === null ? undefined : `${ctx.options.url}/auth/email-confirmation` });

/** JSON, or 204 with no body for `null` (Koa's `ctx.body = null`, as Strapi answers an unknown user). */
function send(res: Response, status: number, body: unknown): void {
  if (body === null || body === undefined) res.status(204).end();
  else res.status(status).json(body);
}

/**
 * The users-permissions plugin's Content API (Strapi 5's routes): `/auth/*`, `/users*`, `/users-permissions/roles*`
 * and `/users-permissions/permissions`. Each route checks its action (`plugin::users-permissions.<controller>.<action>`)
 * against the caller's ability (403), then the rate-limited ones count the request (429), then it runs.
 */
export function usersRoutes(deps: UsersRoutesDeps, router: Router): void {
  const { ctx, limiter } = deps;
  const route = (action: string, fn: Handler, limited = false): RequestHandler => (req, res, next) => {
    const ability = getAbility(req);
    const run = async (): Promise<void> => {
      // No cache keeps an answer of the auth routes: they carry JWTs and account state.
      if (action.startsWith('auth.')) res.set('Cache-Control', 'no-store');
      if (!ability.can(`${UP}.${action}`)) throw new ForbiddenError();
      if (limited && limiter && ctx.options.ratelimit) {
        await limitRequest(limiter, ctx.options.ratelimit.maxPerIp, { path: req.baseUrl + req.path, ip: req.ip ?? '', body: req.body }, res);
      }
      // Bounded before the handler reads it (the limiter reads only a string `email`), so that it counts as a
      // validation error does: a body nested thousands of levels deep would overflow the stack of the validation
      // messages (yup's printValue); content bodies are bounded the same way (400).
      assertSafeStructure(req.body);
      await fn(req, res, ability);
    };
    run().catch((err: unknown) => next(err || new Error(`rejected with ${String(err)}`)));
  };
  const me = (req: Request): Row => {
    const user = deps.currentUser(req);
    if (!user) throw new UnauthorizedError('Unauthorized');
    return user;
  };
  const roleId = (req: Request): number => {
    const id = pathId(req.params.id ?? req.params.role);
    if (Number.isNaN(id)) throw new ValidationError('Invalid role id');
    return id;
  };
  const body = (req: Request): Record<string, unknown> => {
    const b = req.body as unknown;
    if (b === undefined || b === null || (typeof b === 'object' && Object.keys(b).length === 0)) throw new ValidationError('Request body cannot be empty');
    if (typeof b !== 'object' || Array.isArray(b)) throw new ValidationError('The body must be an object');
    return b as Record<string, unknown>;
  };

  const answer = createAuthAnswer(deps.sessions);
  router.route('/auth/local').post(route('auth.callback', async (req, res, a) => answer(req, res, await accounts.login(ctx, req.body, a), 'login'), true)).all(methodNotAllowed(['POST']));
  router.route('/auth/local/register').post(route('auth.register', async (req, res, a) => answer(req, res, await accounts.register(ctx, req.body, a, urlsOf(ctx)), 'register'), true)).all(methodNotAllowed(['POST']));
  router.route('/auth/forgot-password').post(route('auth.forgotPassword', async (req, res) => send(res, 200, await accounts.forgotPassword(ctx, req.body)), true)).all(methodNotAllowed(['POST']));
  router.route('/auth/reset-password').post(route('auth.resetPassword', async (req, res, a) => answer(req, res, await accounts.resetPassword(ctx, req.body, a), 'password'), true)).all(methodNotAllowed(['POST']));
  router.route('/auth/change-password').post(route('auth.changePassword', async (req, res, a) => answer(req, res, await accounts.changePassword(ctx, me(req), req.body, a), 'password'), true)).all(methodNotAllowed(['POST']));
  router.route('/auth/email-confirmation').get(route('auth.emailConfirmation', async (req, res) => res.redirect(await accounts.confirmEmail(ctx, parseRawQuery(rawQueryString(req)) as Record<string, unknown>)))).all(methodNotAllowed(['GET']));
  router.route('/auth/send-email-confirmation').post(route('auth.sendEmailConfirmation', async (req, res) => send(res, 200, await accounts.sendEmailConfirmation(ctx, req.body, urlsOf(ctx))), true)).all(methodNotAllowed(['POST']));

  sessionRoutes(deps.sessions, router, route);
  connectRoutes(ctx, ctx.options.providers, router, route, answer);

  router.route('/users/count').get(route('user.count', async (req, res, a) => send(res, 200, await countUsers(ctx, rawQueryString(req), a)))).all(methodNotAllowed(['GET']));
  router.route('/users/me').get(route('user.me', async (req, res, a) => send(res, 200, await findUser(ctx, me(req).id as number, rawQueryString(req), a)))).all(methodNotAllowed(['GET']));
  router.route('/users')
    .get(route('user.find', async (req, res, a) => send(res, 200, await findUsers(ctx, rawQueryString(req), a))))
    .post(route('user.create', async (req, res, a) => send(res, 201, await createUser(ctx, req.body, a))))
    .all(methodNotAllowed(['GET', 'POST']));
  router.route('/users/:id')
    .get(route('user.findOne', async (req, res, a) => send(res, 200, await findUser(ctx, pathId(req.params.id), rawQueryString(req), a))))
    .put(route('user.update', async (req, res, a) => send(res, 200, await updateUser(ctx, pathId(req.params.id), req.body, a))))
    .delete(route('user.destroy', async (req, res, a) => send(res, 200, await deleteUser(ctx, pathId(req.params.id), a))))
    .all(methodNotAllowed(['GET', 'PUT', 'DELETE']));

  const roles = ctx.roles;
  router.route('/users-permissions/roles')
    .get(route('role.find', async (_req, res) => send(res, 200, { roles: await roles.list() })))
    .post(route('role.createRole', async (req, res) => (await roles.create(body(req)), send(res, 200, { ok: true }))))
    .all(methodNotAllowed(['GET', 'POST']));
  router.route('/users-permissions/roles/:id')
    .get(route('role.findOne', async (req, res) => send(res, 200, { role: await roles.findOne(roleId(req)) })))
    .put(route('role.updateRole', async (req, res) => (await roles.update(roleId(req), body(req)), send(res, 200, { ok: true }))))
    .delete(route('role.deleteRole', async (req, res) => (await roles.delete(roleId(req)), send(res, 200, { ok: true }))))
    .all(methodNotAllowed(['GET', 'PUT', 'DELETE']));
  router.route('/users-permissions/permissions').get(route('permissions.getPermissions', async (_req, res) => send(res, 200, { permissions: permissionsTree(deps.registry, []) }))).all(methodNotAllowed(['GET']));
}
