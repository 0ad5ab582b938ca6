import type { IncomingMessage } from 'node:http';
import type { Authenticator } from '../auth';
import type { Ability } from '../auth/types';
import type { ModelCaller } from './describe-model';
import type { ComponentSchema, ContentTypeSchema } from '../schema';
import type { UsersPermissionsRuntime } from '../users-permissions';

/**
 * Who a request's caller is, for the model endpoint's `caller`: the user of a users-permissions JWT (with its
 * role), the type of an API token, the subject `auth.resolve` gave, or null for the Public role.
 *
 * @example
 * const describe = createCallerDescriber(auth, users);
 * await describe(req, getAbility(req)); // { kind: 'token', type: 'read-only' }
 */
export function createCallerDescriber(auth: Authenticator, users: UsersPermissionsRuntime | undefined): (req: IncomingMessage, ability: Ability) => Promise<ModelCaller> {
  return async (req, ability) => {
    const type = auth.tokenType?.(ability);
    if (type) return { kind: 'token', type };
    if (ability.subject === 'public' || ability.subject === 'none') return null;
    const user = await users?.describeUser(req);
    if (user) return { kind: 'user', ...user };
    return { kind: 'host', subject: ability.subject };
  };
}

/** `info.displayName` of each content type (by uid) and component (by its key) of the options. */
export function displayNamesOf(options: { contentTypes: readonly ContentTypeSchema[]; components?: Readonly<Record<string, ComponentSchema>> }): Map<string, string> {
  const names = new Map<string, string>();
  for (const schema of options.contentTypes) {
    const singular = schema.info?.singularName;
    const name = schema.info?.displayName;
    if (typeof name === 'string' && typeof singular === 'string') names.set(schema.uid ?? `api::${singular}.${singular}`, name);
  }
  for (const [uid, schema] of Object.entries(options.components ?? {})) {
    const name = (schema as { info?: { displayName?: unknown } }).info?.displayName;
    if (typeof name === 'string') names.set(uid, name);
  }
  return names;
}
