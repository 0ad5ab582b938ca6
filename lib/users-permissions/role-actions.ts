import { CONTENT_TYPE_ACTIONS, I18N_LIST_LOCALES, UPLOAD_ACTIONS, UPLOAD_CONTENT_API } from '../auth/check-actions';
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

/** Every action a role may be granted here, as `type.controller.action` strings (Strapi's `getActions()`). */
export function allActions(registry: Registry): string[] {
  const out: string[] = [];
  for (const ct of registry.contentTypes.values()) {
    if (ct.internal) continue;
    const actions = ct.kind === 'singleType' ? ['find', 'update', 'delete', 'findDrafts'] : CONTENT_TYPE_ACTIONS;
    for (const a of actions) out.push(`${ct.uid}.${a}`);
  }
  for (const a of UPLOAD_ACTIONS) out.push(`${UPLOAD_CONTENT_API}.${a}`);
  out.push(I18N_LIST_LOCALES);
  for (const [controller, actions] of Object.entries(USERS_PERMISSIONS_ACTIONS)) for (const a of actions) out.push(`${UP}.${controller}.${a}`);
  return out;
}

/** `api::article.article.find` -> ['api::article', 'article', 'find'] (Strapi splits on the dots). */
function split(action: string): [string, string, string] {
  const [type = '', controller = '', name = ''] = action.split('.');
  return [type, controller, name];
}

/** The tree of every action, those in `granted` enabled (the `permissions` of `GET /users-permissions/roles/:id`). */
export function permissionsTree(registry: Registry, granted: readonly string[]): PermissionsTree {
  const tree: PermissionsTree = {};
  const enabled = new Set(granted);
  for (const action of allActions(registry)) {
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
