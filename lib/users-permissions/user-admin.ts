import type { Ability } from '../auth/types';
import { ApplicationError, NotFoundError, ValidationError } from '../errors';
import { parseRawQuery } from '../query';
import type { Query } from '../query/types';
import type { AccountsContext } from './accounts';
import { hashPassword } from './passwords';
import { bodyObject, validateStrings } from './validate-body';
import { AUTH_LIMITS, EMAIL_RULE, USERNAME_RULE } from './auth-limits';

type Row = Record<string, unknown>;

/**
 * The query of the `/users` routes: Strapi's Document Service parameters, where `start` and `limit` may also be
 * given at the top level (`/users?start=0&limit=10`) as Strapi's `fetchAll` takes them.
 */
function usersQuery(ctx: AccountsContext, rawQuery: string, ability: Ability, action: 'find' | 'findOne'): Query {
  const params = parseRawQuery(rawQuery) as Record<string, unknown>;
  if (action === 'find' && (params.start !== undefined || params.limit !== undefined)) {
    const { start, limit, ...rest } = params;
    const pagination = { ...(start !== undefined ? { start } : {}), ...(limit !== undefined ? { limit } : {}) };
    return ctx.users.query('', ability, action, { ...rest, pagination });
  }
  return ctx.users.query(rawQuery, ability, action);
}

/** `GET /users`: a bare array of users (no `data` envelope, as Strapi). */
export async function findUsers(ctx: AccountsContext, rawQuery: string, ability: Ability): Promise<Row[]> {
  return (await ctx.users.findMany(usersQuery(ctx, rawQuery, ability, 'find'))).data;
}

/** `GET /users/count`: how many users match the filters. */
export async function countUsers(ctx: AccountsContext, rawQuery: string, ability: Ability): Promise<number> {
  const query = ctx.users.query(rawQuery, ability, 'find');
  const result = await ctx.users.findMany({ ...query, pagination: { kind: 'page', page: 1, pageSize: 1, withCount: true } });
  return (result.pagination as { total?: number }).total ?? 0;
}

/** `GET /users/:id` and `/users/me`: the user, or null (answered 204 as Strapi's `ctx.body = null`). */
export async function findUser(ctx: AccountsContext, id: number, rawQuery: string, ability: Ability): Promise<Row | null> {
  return ctx.users.findById(id, usersQuery(ctx, rawQuery, ability, 'findOne'));
}

/** An integer id of the path (`/users/12`), or NaN: a user id that cannot exist. */
export function pathId(value: unknown): number {
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
}

const withRole = (ctx: AccountsContext, id: number, ability: Ability): Promise<Row | null> =>
  ctx.users.findById(id, ctx.users.query('populate=role', ability, 'findOne'));

/** `POST /users`: creates a user (role required), answered with its role. */
export async function createUser(ctx: AccountsContext, body: unknown, ability: Ability): Promise<Row> {
  const data = bodyObject(body);
  const { email, username, password } = validateStrings(data, { email: EMAIL_RULE, username: USERNAME_RULE, password: { required: true } });
  if (data.role === undefined || data.role === null || data.role === '') {
    throw new ValidationError('role is a required field', { errors: [{ path: ['role'], message: 'role is a required field', name: 'ValidationError' }] });
  }
  if (await ctx.users.rowWhere({ username })) throw new ApplicationError('Username already taken');
  if (await ctx.users.rowWhere({ email: email!.toLowerCase() })) throw new ApplicationError('Email already taken');
  const user: Row = { ...data, email: email!.toLowerCase(), provider: 'local' };
  ctx.users.check(user, 'create');
  const id = await ctx.users.create({ ...user, password: await hashPassword(password!) });
  return (await withRole(ctx, id, ability))!;
}

/** `PUT /users/:id`: updates a user; 404 when there is none. Answered with its role. */
export async function updateUser(ctx: AccountsContext, id: number, body: unknown, ability: Ability): Promise<Row> {
  const current = await ctx.users.rowById(id);
  if (!current) throw new NotFoundError('User not found');
  const data = { ...bodyObject(body) };
  const rules = { email: { email: true, max: AUTH_LIMITS.name }, username: { max: AUTH_LIMITS.name }, password: {} };
  validateStrings(Object.fromEntries(Object.keys(rules).filter((k) => data[k] !== undefined).map((k) => [k, data[k]])), rules);
  if (current.provider === 'local' && 'password' in data && !data.password) throw new ValidationError('password.notNull');
  if ('username' in data) {
    const other = await ctx.users.rowWhere({ username: String(data.username) });
    if (other && other.id !== current.id) throw new ApplicationError('Username already taken');
  }
  if ('email' in data && typeof data.email === 'string') {
    data.email = data.email.toLowerCase();
    const other = await ctx.users.rowWhere({ email: data.email });
    if (other && other.id !== current.id) throw new ApplicationError('Email already taken');
  }
  ctx.users.check(data, 'update');
  if (typeof data.password === 'string') data.password = await hashPassword(data.password);
  await ctx.users.update(current.documentId as string, data);
  return (await withRole(ctx, id, ability))!;
}

/** `DELETE /users/:id`: the deleted user, or null (204) when there was none. */
export async function deleteUser(ctx: AccountsContext, id: number, ability: Ability): Promise<Row | null> {
  const user = await ctx.users.findById(id, ctx.users.query('', ability, 'findOne'));
  const row = await ctx.users.rowById(id);
  if (!user || !row) return null;
  await ctx.users.delete(row.documentId as string);
  await ctx.sessions?.endAll(String(id)); // as Strapi: a deleted user's sessions end with it
  return user;
}
