export const USER_UID = 'plugin::users-permissions.user';
export const ROLE_UID = 'plugin::users-permissions.role';
/** Where the rate limit counts requests (one row per key and window), shared by every app instance. */
export const RATE_LIMIT_COLLECTION = 'up_rate_limits';
/** Where session mode (`jwtManagement: 'refresh'`) keeps the sessions behind refresh tokens, shared by every instance. */
export const SESSIONS_COLLECTION = 'up_sessions';

/** The attributes of Strapi's user type that the plugin itself reads and writes (an extension cannot change them). */
export const USER_CORE_ATTRIBUTES = ['username', 'email', 'provider', 'password', 'resetPasswordToken', 'confirmationToken', 'confirmed', 'blocked', 'role'] as const;

/**
 * Strapi 5's user type (`@strapi/plugin-users-permissions` server/content-types/user/schema.json), stored in
 * `up_users` like Strapi's table. `password`, `resetPasswordToken` and `confirmationToken` are private: no route,
 * populate, filter or sort reaches them (format/ and query/ skip private attributes). `email` is unique here
 * (Strapi's `unique_email` setting, on by default), so that two instances cannot register one address twice. The
 * host's attributes (a project's `src/extensions/users-permissions/content-types/user/schema.json`) are added; the
 * plugin's own attributes in that file are the plugin's, as they are in Strapi.
 */
function userDefinition(given: Readonly<Record<string, unknown>>): Record<string, unknown> {
  // A project's extension file repeats the plugin's attributes: those stay the plugin's, the others are added.
  const extra = Object.fromEntries(Object.entries(given).filter(([name]) => !(USER_CORE_ATTRIBUTES as readonly string[]).includes(name)));
  return {
    kind: 'collectionType',
    uid: USER_UID,
    collectionName: 'up_users',
    info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
    options: { draftAndPublish: false },
    attributes: {
      username: { type: 'string', minLength: 3, unique: true, required: true },
      email: { type: 'email', minLength: 6, unique: true, required: true },
      provider: { type: 'string' },
      password: { type: 'password', minLength: 6, private: true },
      resetPasswordToken: { type: 'string', private: true },
      confirmationToken: { type: 'string', private: true },
      confirmed: { type: 'boolean', default: false },
      blocked: { type: 'boolean', default: false },
      role: { type: 'relation', relation: 'manyToOne', target: ROLE_UID, inversedBy: 'users' },
      ...extra,
    },
  };
}

/**
 * Strapi 5's role type, stored in `up_roles`. Strapi keeps a role's grants as rows of its permission type; here
 * they are the role's private `permissions` list of action names (never answered but by the roles routes).
 */
const roleDefinition = {
  kind: 'collectionType',
  uid: ROLE_UID,
  collectionName: 'up_roles',
  info: { singularName: 'role', pluralName: 'roles', displayName: 'Role' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string', minLength: 3, required: true },
    description: { type: 'string' },
    type: { type: 'string', unique: true },
    permissions: { type: 'json', private: true },
    users: { type: 'relation', relation: 'oneToMany', target: USER_UID, mappedBy: 'role' },
  },
} as const;

/** The content types the plugin adds to the registry: the user (with the host's extra attributes) and the role. */
export function usersContentTypes(userAttributes: Readonly<Record<string, unknown>>): Record<string, unknown>[] {
  return [userDefinition(userAttributes), roleDefinition];
}
