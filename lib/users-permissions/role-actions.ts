import { I18N_LIST_LOCALES, UPLOAD_CONTENT_API } from '../auth/check-actions';
import { ValidationError } from '../errors';
import type { Registry } from '../schema';

const UP = 'plugin::users-permissions';

/** The plugin's own Content API actions, by controller (server/routes/content-api in Strapi 5). */
export const USERS_PERMISSIONS_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  auth: ['callback', 'connect', 'register', 'forgotPassword', 'resetPassword', 'emailConfirmation', 'sendEmailConfirmation', 'changePassword', 'refresh', 'logout', 'getSessions', 'revokeSession'],
  user: ['find', 'findOne', 'create', 'update', 'destroy', 'me', 'count'],
  role: ['find', 'findOne', 'createRole', 'updateRole', 'deleteRole'],
  permissions: ['getPermissions'],
};

/** What Strapi grants the Authenticated role when it creates it (bootstrap of the plugin). */
export const AUTHENTICATED_DEFAULTS: readonly string[] = ['user.me', 'auth.changePassword', 'auth.logout', 'auth.getSessions', 'auth.revokeSession'].map((a) => `${UP}.${a}`);

/** What Strapi grants the Public role: anonymous callers can register, log in and reset their password. */
export const PUBLIC_DEFAULTS: readonly string[] = ['callback', 'connect', 'register', 'forgotPassword', 'resetPassword', 'emailConfirmation', 'sendEmailConfirmation', 'refresh'].map((a) => `${UP}.auth.${a}`);

/** `{ enabled, policy }` of one action in a role's permissions tree. */
export interface ActionState {
  enabled: boolean;
  policy: string;
}

/** Strapi's permissions tree: `{ 'api::article': { controllers: { article: { find: { enabled, policy } } } } }`. */
export type PermissionsTree = Record<string, { controllers: Record<string, Record<string, ActionState>> }>;

/** The actions of a content type's core controller that Strapi lists (`findDrafts` is this library's own). */
const STRAPI_TYPE_ACTIONS = { collectionType: ['find', 'findOne', 'create', 'update', 'delete'], singleType: ['find', 'update', 'delete'] } as const;

/**
 * The upload plugin's Content API controller, as Strapi lists it: every method of `content-api`. `POST /upload`
 * checks `upload` (in Strapi too); `updateFileInfo`, `replaceFile` and `uploadFiles` are listed and may be
 * switched on, and grant nothing by themselves.
 */
const STRAPI_UPLOAD_ACTIONS: readonly string[] = ['find', 'findOne', 'destroy', 'updateFileInfo', 'replaceFile', 'uploadFiles', 'upload'];

/**
 * The actions of Strapi's `getActions()` (the content-api actions of every controller), in its order, plus
 * `<type>.findDrafts` for the types whose uid is in `drafts` (the role has it): `findDrafts` is not a Strapi action,
 * it shows where it is granted, so that a client that reads a role, changes it and writes it back keeps it.
 */
function listedActions(registry: Registry, drafts: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const ct of registry.contentTypes.values()) {
    if (ct.internal) continue;
    for (const a of STRAPI_TYPE_ACTIONS[ct.kind === 'singleType' ? 'singleType' : 'collectionType']) out.push(`${ct.uid}.${a}`);
    if (drafts.has(ct.uid)) out.push(`${ct.uid}.findDrafts`);
  }
  for (const a of STRAPI_UPLOAD_ACTIONS) out.push(`${UPLOAD_CONTENT_API}.${a}`);
  out.push(I18N_LIST_LOCALES);
  for (const [controller, actions] of Object.entries(USERS_PERMISSIONS_ACTIONS)) for (const a of actions) out.push(`${UP}.${controller}.${a}`);
  return out;
}

/** Every action a role may be granted here, as `type.controller.action` strings: Strapi's, and `findDrafts` of every type. */
export function allActions(registry: Registry): string[] {
  const types = [...registry.contentTypes.values()].filter((ct) => !ct.internal).map((ct) => ct.uid);
  return listedActions(registry, new Set(types));
}

/** `api::article.article.find` -> ['api::article', 'article', 'find'] (Strapi splits on the dots). */
function split(action: string): [string, string, string] {
  const [type = '', controller = '', name = ''] = action.split('.');
  return [type, controller, name];
}

/**
 * The tree of Strapi's actions, those in `granted` enabled (the `permissions` of `GET /users-permissions/roles/:id`,
 * and of `GET /users-permissions/permissions` with none): a type's `findDrafts` is listed only where granted.
 */
export function permissionsTree(registry: Registry, granted: readonly string[]): PermissionsTree {
  const tree: PermissionsTree = {};
  const enabled = new Set(granted);
  const drafts = new Set(granted.filter((a) => a.endsWith('.findDrafts')).map((a) => a.slice(0, -'.findDrafts'.length)));
  for (const action of listedActions(registry, drafts)) {
    const [type, controller, name] = split(action);
    const controllers = (tree[type] ??= { controllers: {} }).controllers;
    (controllers[controller] ??= {})[name] = { enabled: enabled.has(action), policy: '' };
  }
  return tree;
}

/**
 * The actions enabled in a permissions tree of a role body (Strapi's `createRole` / `updateRole`). An action
 * this API does not have is a 400 naming it: a typo would otherwise grant nothing without a word.
 */
export function actionsOfTree(registry: Registry, tree: unknown): string[] {
  if (tree === undefined) return [];
  const known = new Set(allActions(registry));
  const out: string[] = [];
  const entries = (v: unknown): [string, unknown][] => (v && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v) : []);
  if (entries(tree).length === 0 && (typeof tree !== 'object' || tree === null || Array.isArray(tree))) {
    throw new ValidationError('permissions must be an object: { [type]: { controllers: { [controller]: { [action]: { enabled } } } } }');
  }
  for (const [type, value] of entries(tree)) {
    for (const [controller, actions] of entries((value as { controllers?: unknown } | null)?.controllers)) {
      for (const [name, state] of entries(actions)) {
        if ((state as { enabled?: unknown } | null)?.enabled !== true) continue;
        const action = `${type}.${controller}.${name}`;
        if (!known.has(action)) throw new ValidationError(`Unknown action ${action}`, { key: action, source: 'body' });
        out.push(action);
      }
    }
  }
  return out;
}
