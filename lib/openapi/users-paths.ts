import type { Registry } from '../schema';
import { routeParameters, type Parameter } from './parameters';
import type { JsonSchema } from './schemas';

/** `plugin::users-permissions.user`: present in the registry when `auth.users` is on. */
const USER_UID = 'plugin::users-permissions.user';
const UP = 'plugin::users-permissions';

type Operation = Record<string, unknown>;
type PathItem = Record<string, Operation | Parameter[]>;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const ok = (description: string, schema: JsonSchema) => ({ description, content: json(schema) });
const errorsOf = (codes: readonly number[]) => Object.fromEntries(codes.map((c) => [String(c), { description: 'Strapi\'s error envelope', content: json(ref('Error')) }]));
const COMMON = [400, 401, 403, 429, 500, 503];

const user = ref('UsersPermissionsUser');
/** A role as the roles routes answer it (the stored fields, plus `nb_users` or `permissions`). */
const roleWith = (extra: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  required: ['id', 'documentId', 'name', 'type'],
  properties: { id: { type: 'integer' }, documentId: { type: 'string' }, name: { type: 'string' }, description: { type: ['string', 'null'] }, type: { type: 'string' }, createdAt: { type: 'string' }, updatedAt: { type: 'string' }, publishedAt: { type: ['string', 'null'] }, ...extra },
});
const auth: JsonSchema = {
  type: 'object',
  required: ['user'],
  properties: { jwt: { type: 'string', description: 'HS256 JWT: send it as `Authorization: Bearer <jwt>`' }, refreshToken: { type: 'string', description: 'Session mode only: spend it at /auth/refresh' }, user },
};
const okTrue: JsonSchema = { type: 'object', required: ['ok'], properties: { ok: { const: true } } };
const body = (properties: Record<string, JsonSchema>, required: string[]) => ({ required: true, content: json({ type: 'object', required, properties }) });
const str = { type: 'string' } as const;
/** Session mode's answers: a token pair, and one session of `GET /auth/sessions`. */
const tokens: JsonSchema = { type: 'object', required: ['jwt'], properties: { jwt: str, refreshToken: str } };
const sessionEntry: JsonSchema = {
  type: 'object',
  required: ['id', 'deviceId', 'current', 'lastActiveAt'],
  properties: { id: str, deviceId: { type: ['string', 'null'] }, deviceName: str, current: { type: 'boolean' }, loginAt: str, lastActiveAt: str },
};
const tree: JsonSchema = { type: 'object', description: '`{ [type]: { controllers: { [controller]: { [action]: { enabled, policy } } } } }`' };

function op(action: string, summary: string, extra: Operation): Operation {
  return { operationId: `${UP}.${action}`, tags: [UP], summary, 'x-strapi-action': `${UP}.${action}`, ...extra };
}

/**
 * Social login (docs/users.md#social-login): `/connect/{provider}`, its callback, and `/auth/{provider}/callback`. The
 * last two share their action with another route (`x-strapi-action`), so their operationIds get a suffix (unique).
 */
function connectPaths(): Record<string, PathItem> {
  const provider: Parameter = { name: 'provider', in: 'path', required: true, schema: str, description: 'A provider of auth.users.providers' };
  const query = (name: string, description: string): Parameter => ({ name, in: 'query', required: false, schema: str, description });
  return {
    '/connect/{provider}': {
      parameters: [provider],
      get: op('auth.connect', 'Log in with a provider: redirects to its authorization endpoint', { parameters: [query('callback', 'Another frontend URL of the configured callback\'s origin')], responses: { 302: { description: 'To the provider' }, ...errorsOf(COMMON) } }),
    },
    '/connect/{provider}/callback': {
      parameters: [provider],
      get: op('auth.connect', 'The provider\'s answer (its redirect URI): redirects to the frontend with access_token or error', { operationId: `${UP}.auth.connect.callback`, responses: { 302: { description: 'To the frontend callback, with ?access_token= or ?error=' }, ...errorsOf(COMMON) } }),
    },
    '/auth/{provider}/callback': {
      parameters: [provider],
      get: op('auth.callback', 'Log in (or register) with a provider\'s access token', { operationId: `${UP}.auth.callback.provider`, parameters: [query('access_token', 'The provider\'s access token')], responses: { 200: ok('The JWT and the user', auth), ...errorsOf(COMMON) } }),
    },
  };
}

/**
 * The routes of the users-permissions plugin (docs/users.md), when the registry has its user type: `/auth/*`,
 * `/users*`, `/users-permissions/roles*`, `/users-permissions/permissions` and social login's.
 */
export function usersPaths(registry: Registry, maxLimit: number): Record<string, PathItem> {
  const ct = registry.contentTypes.get(USER_UID);
  if (!ct) return {};
  const id: Parameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'The integer id' };
  const password = { type: 'string', maxLength: 72 } as const;
  return {
    '/auth/local': { post: op('auth.callback', 'Log in with an e-mail or username and a password', { requestBody: body({ identifier: str, password: str }, ['identifier', 'password']), responses: { 200: ok('The JWT and the user', auth), ...errorsOf(COMMON) } }) },
    '/auth/local/register': { post: op('auth.register', 'Register a user (of the default role)', { requestBody: body({ username: str, email: { type: 'string', format: 'email' }, password }, ['username', 'email', 'password']), responses: { 200: ok('The JWT (none with e-mail confirmation) and the user', auth), ...errorsOf(COMMON) } }) },
    '/auth/change-password': { post: op('auth.changePassword', 'Change the password of the JWT\'s user', { requestBody: body({ currentPassword: str, password, passwordConfirmation: str }, ['currentPassword', 'password', 'passwordConfirmation']), responses: { 200: ok('A new JWT and the user', auth), ...errorsOf(COMMON) } }) },
    '/auth/forgot-password': { post: op('auth.forgotPassword', 'E-mail a reset code (the same answer for every address)', { requestBody: body({ email: str }, ['email']), responses: { 200: ok('Always', okTrue), ...errorsOf(COMMON) } }) },
    '/auth/reset-password': { post: op('auth.resetPassword', 'Set a new password with the e-mailed code', { requestBody: body({ code: str, password, passwordConfirmation: str }, ['code', 'password', 'passwordConfirmation']), responses: { 200: ok('The JWT and the user', auth), ...errorsOf(COMMON) } }) },
    '/auth/email-confirmation': { get: op('auth.emailConfirmation', 'Confirm an e-mail address', { parameters: [{ name: 'confirmation', in: 'query', required: true, schema: str }], responses: { 302: { description: 'Confirmed: redirects to advanced.emailConfirmationRedirection' }, ...errorsOf(COMMON) } }) },
    '/auth/send-email-confirmation': { post: op('auth.sendEmailConfirmation', 'Send the confirmation e-mail again', { requestBody: body({ email: str }, ['email']), responses: { 200: ok('Sent', { type: 'object', properties: { email: str, sent: { const: true } } }), ...errorsOf(COMMON) } }) },
    // Session mode (`jwtManagement: 'refresh'`) only: 404 otherwise, as Strapi.
    '/auth/refresh': { post: op('auth.refresh', 'Spend a refresh token (body or cookie) for a new pair (session mode)', { requestBody: { content: json({ type: 'object', properties: { refreshToken: str } }) }, responses: { 200: ok('The new access token (and refresh token unless in the cookie)', tokens), ...errorsOf([...COMMON, 404]) } }) },
    '/auth/logout': { post: op('auth.logout', 'End this session, a device\'s (`deviceId`), a refresh token\'s, or all (`scope: "all"`)', { requestBody: { content: json({ type: 'object', properties: { scope: { const: 'all' }, deviceId: str, refreshToken: str } }) }, responses: { 200: ok('Done', okTrue), ...errorsOf([...COMMON, 404]) } }) },
    '/auth/sessions': { get: op('auth.getSessions', 'The caller\'s live sessions, the current one first', { responses: { 200: ok('The sessions', { type: 'object', required: ['data'], properties: { data: { type: 'array', items: sessionEntry } } }), ...errorsOf([...COMMON, 404]) } }) },
    '/auth/sessions/{sessionId}': {
      parameters: [{ name: 'sessionId', in: 'path', required: true, schema: str, description: 'A session id of GET /auth/sessions' }],
      delete: op('auth.revokeSession', 'End one of the caller\'s sessions', { responses: { 200: ok('Ended', { type: 'object', properties: { data: { type: 'object' } } }), ...errorsOf([...COMMON, 404]) } }),
    },
    '/users/me': { get: op('user.me', 'The JWT\'s user', { parameters: routeParameters(registry, ct, 'findOne', maxLimit), responses: { 200: ok('The user', user), ...errorsOf(COMMON) } }) },
    '/users/count': { get: op('user.count', 'Count users', { responses: { 200: ok('How many', { type: 'integer', minimum: 0 }), ...errorsOf(COMMON) } }) },
    '/users': {
      get: op('user.find', 'List users (a bare array)', { parameters: routeParameters(registry, ct, 'find', maxLimit), responses: { 200: ok('The users', { type: 'array', items: user }), ...errorsOf(COMMON) } }),
      post: op('user.create', 'Create a user (role required)', { requestBody: { required: true, content: json({ type: 'object', required: ['username', 'email', 'password', 'role'] }) }, responses: { 201: ok('The user with its role', user), ...errorsOf(COMMON) } }),
    },
    '/users/{id}': {
      parameters: [id],
      get: op('user.findOne', 'Get a user', { parameters: routeParameters(registry, ct, 'findOne', maxLimit), responses: { 200: ok('The user', user), 204: { description: 'No such user' }, ...errorsOf(COMMON) } }),
      put: op('user.update', 'Update a user', { requestBody: { required: true, content: json({ type: 'object' }) }, responses: { 200: ok('The user with its role', user), ...errorsOf([...COMMON, 404]) } }),
      delete: op('user.destroy', 'Delete a user', { responses: { 200: ok('The deleted user', user), 204: { description: 'No such user' }, ...errorsOf(COMMON) } }),
    },
    '/users-permissions/roles': {
      get: op('role.find', 'List roles', { responses: { 200: ok('The roles with nb_users', { type: 'object', required: ['roles'], properties: { roles: { type: 'array', items: roleWith({ nb_users: { type: 'integer' } }) } } }), ...errorsOf(COMMON) } }),
      post: op('role.createRole', 'Create a role', { requestBody: body({ name: str, description: str, type: str, permissions: tree }, ['name']), responses: { 200: ok('Created', okTrue), ...errorsOf(COMMON) } }),
    },
    '/users-permissions/roles/{id}': {
      parameters: [id],
      get: op('role.findOne', 'Get a role and its permissions', { responses: { 200: ok('The role', { type: 'object', required: ['role'], properties: { role: roleWith({ permissions: tree }) } }), ...errorsOf([...COMMON, 404]) } }),
      put: op('role.updateRole', 'Update a role', { requestBody: body({ name: str, description: str, permissions: tree }, []), responses: { 200: ok('Updated', okTrue), ...errorsOf([...COMMON, 404]) } }),
      delete: op('role.deleteRole', 'Delete a role (its users move to Public)', { responses: { 200: ok('Deleted', okTrue), ...errorsOf([...COMMON, 404]) } }),
    },
    '/users-permissions/permissions': { get: op('permissions.getPermissions', 'Every action', { responses: { 200: ok('The tree', { type: 'object', properties: { permissions: tree } }), ...errorsOf(COMMON) } }) },
    ...connectPaths(),
  };
}
