import type { Registry } from '../schema';
import { ROLE_UID, USER_UID } from '../users-permissions/content-types';

export { ROLE_UID, USER_UID };

/**
 * Strapi's permission type (`up_permissions`): one row per action granted to a role, linked to the role by its
 * `role` relation. Here a role keeps its grants as its own `permissions` list (docs/storage-model.md), so an
 * import turns these rows into that list and an export writes the list back as these rows.
 */
export const PERMISSION_UID = 'plugin::users-permissions.permission';

/** Every type of the users-and-permissions plugin that a transfer moves when the model has users. */
const USERS_PERMISSIONS_TYPES: ReadonlySet<string> = new Set([USER_UID, ROLE_UID, PERMISSION_UID]);

/**
 * Whether users, roles and permissions move with the data: the model has the plugin's types (`auth.users`, or a
 * transfer target with `users`). Without them, Strapi's lines of these types are kept aside as they came.
 */
export const movesUsers = (registry: Registry): boolean => registry.contentTypes.has(USER_UID) && registry.contentTypes.has(ROLE_UID);

/** Whether an entity (`type`) or link (`left.type`) line of an export is one of the plugin's types. */
export function isUsersPermissionsLine(value: unknown): boolean {
  const line = value as { type?: unknown; left?: { type?: unknown } } | null;
  const type = line?.type ?? line?.left?.type;
  return typeof type === 'string' && USERS_PERMISSIONS_TYPES.has(type);
}
