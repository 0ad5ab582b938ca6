import { ConfigurationError } from '../errors';
import { unwrapLoadedModel } from '../schema/loaded-model';
import { USER_UID, usersContentTypes } from '../users-permissions/content-types';

/**
 * The users-and-permissions plugin's types in `generateTypes`: `true`, or the router's `auth.users` option, of
 * which only `userSchema` (a project's `src/extensions/users-permissions/content-types/user/schema.json`) is read;
 * `false` leaves them out (a relation to users is then `CR_UNKNOWN_TARGET`, as for a router without `auth.users`).
 */
export type GenerateUsersOption = boolean | { userSchema?: { attributes?: Record<string, unknown> } };

const PLUGIN_PREFIX = 'plugin::users-permissions.';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The definitions' uids and whether an attribute of one of them targets a type of the plugin. */
function scan(definitions: readonly unknown[]): { uids: Set<string>; targeted: boolean } {
  const uids = new Set<string>();
  let targeted = false;
  for (const given of definitions) {
    const def = unwrapLoadedModel(given);
    if (!isObject(def)) continue;
    if (typeof def.uid === 'string') uids.add(def.uid);
    const attributes = isObject(def.attributes) ? Object.values(def.attributes) : [];
    if (attributes.some((a) => isObject(a) && typeof a.target === 'string' && a.target.startsWith(PLUGIN_PREFIX))) targeted = true;
  }
  return { uids, targeted };
}

/** The extension's attributes, checked as the router checks `auth.users.userSchema`. */
function extensionAttributes(users: GenerateUsersOption): Record<string, unknown> {
  if (typeof users === 'boolean') return {};
  if (!isObject(users)) throw new ConfigurationError('CR_INVALID_OPTIONS', 'users must be true, false or { userSchema }');
  const { userSchema } = users;
  if (userSchema === undefined) return {};
  if (!isObject(userSchema) || (userSchema.attributes !== undefined && !isObject(userSchema.attributes))) {
    throw new ConfigurationError('CR_INVALID_OPTIONS', 'users.userSchema must be an object whose attributes are an object, as src/extensions/users-permissions/content-types/user/schema.json');
  }
  return userSchema.attributes ?? {};
}

/**
 * The plugin's content types (user and role) that `generateTypes` adds to the model, as `createContentRouter`
 * adds them with `auth.users` (the same definitions, the extension's attributes added to the user's): when
 * `users` says so, or, when it is not given, when a content type or component relates to one of them (the app
 * must then run the plugin). None when the given definitions hold them already (loaded models of a Strapi app).
 *
 * @example
 * usersDefinitions({ contentTypes: [note] }); // [user, role] when note relates to plugin::users-permissions.user
 */
export function usersDefinitions(input: { contentTypes: readonly unknown[]; components?: Readonly<Record<string, unknown>>; users?: GenerateUsersOption }): Record<string, unknown>[] {
  const { users } = input;
  if (users === false) return [];
  const { uids, targeted } = scan([...input.contentTypes, ...Object.values(input.components ?? {})]);
  if (uids.has(USER_UID)) return [];
  if (users === undefined) return targeted ? usersContentTypes({}) : [];
  return usersContentTypes(extensionAttributes(users));
}

/**
 * The error's message with what to do when it comes from a user extension that was not given: a relation whose
 * other side is declared in the project's extension file (`inversedBy`/`mappedBy` on the user).
 *
 * @example
 * usersHint(err); // '\nThe other side of a relation to users is in the project\'s ... --users-extension <file>.'
 */
export function usersHint(err: unknown): string {
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (code !== 'CR_RELATION_MISMATCH' || typeof message !== 'string' || !message.includes(USER_UID)) return '';
  return '\nThe other side of a relation to users is declared in the project\'s src/extensions/users-permissions/content-types/user/schema.json: give it with --users-extension <file>.';
}
