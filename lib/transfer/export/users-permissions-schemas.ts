import type { Registry } from '../../schema';
import { USER_CORE_ATTRIBUTES } from '../../users-permissions/content-types';
import { movesUsers, PERMISSION_UID, ROLE_UID, USER_UID } from '../permission-type';
import { strapiSystemAttributes } from './strapi-schemas';

type Json = Record<string, unknown>;

const HIDDEN = { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } };
const FIXED = { configurable: false };
const SECRET = { configurable: false, private: true, searchable: false };

/** The fields Strapi 5.54 gives the plugin's three types when it loads them (the blog fixture's schemas/ lines). */
function pluginSchema(uid: string, collectionName: string, name: string, attributes: Json, extra: Json): Json {
  const info = { name, description: '', singularName: name, pluralName: `${name}s`, displayName: name.charAt(0).toUpperCase() + name.slice(1) };
  const globalId = `UsersPermissions${info.displayName}`;
  return {
    collectionName, info, ...extra, attributes: { ...attributes, ...strapiSystemAttributes(uid, collectionName, false) },
    kind: 'collectionType', modelType: 'contentType', modelName: name, uid, plugin: 'users-permissions', globalId,
  };
}

/** The user type's attributes of a project's extension (`auth.users.userSchema`), as written there. */
function extensionAttributes(registry: Registry): Json {
  const user = registry.contentType(USER_UID);
  const core: readonly string[] = USER_CORE_ATTRIBUTES;
  return Object.fromEntries(user.attributeNames.filter((n) => !core.includes(n)).map((n) => [n, user.attributes[n]!.raw]));
}

/**
 * The schemas of the users-and-permissions types as `strapi export` of Strapi 5.54 writes them, for an export of
 * a store that no import gave Strapi's own: the user (with the project's extension attributes), the role and the
 * permission (which holds a role's grants in Strapi; docs/transfer.md). None when the model has no users.
 */
export function usersPermissionsSchemas(registry: Registry): Json[] {
  if (!movesUsers(registry)) return [];
  const user = pluginSchema(USER_UID, 'up_users', 'user', {
    username: { type: 'string', minLength: 3, unique: true, configurable: false, required: true },
    email: { type: 'email', minLength: 6, configurable: false, required: true },
    provider: { type: 'string', configurable: false },
    password: { type: 'password', minLength: 6, ...SECRET },
    resetPasswordToken: { type: 'string', ...SECRET },
    confirmationToken: { type: 'string', ...SECRET },
    confirmed: { type: 'boolean', default: false, configurable: false },
    blocked: { type: 'boolean', default: false, configurable: false },
    role: { type: 'relation', relation: 'manyToOne', target: ROLE_UID, inversedBy: 'users', configurable: false },
    ...extensionAttributes(registry),
  }, { options: { timestamps: true, draftAndPublish: false } });
  const role = pluginSchema(ROLE_UID, 'up_roles', 'role', {
    name: { type: 'string', minLength: 3, required: true, configurable: false },
    description: { type: 'string', configurable: false },
    type: { type: 'string', unique: true, configurable: false },
    permissions: { type: 'relation', relation: 'oneToMany', target: PERMISSION_UID, mappedBy: 'role', configurable: false },
    users: { type: 'relation', relation: 'oneToMany', target: USER_UID, mappedBy: 'role', configurable: false },
  }, { options: { draftAndPublish: false }, pluginOptions: HIDDEN });
  const permission = pluginSchema(PERMISSION_UID, 'up_permissions', 'permission', {
    action: { type: 'string', required: true, ...FIXED },
    role: { type: 'relation', relation: 'manyToOne', target: ROLE_UID, inversedBy: 'permissions', ...FIXED },
  }, { options: { draftAndPublish: false }, pluginOptions: HIDDEN });
  return [user, role, permission];
}
