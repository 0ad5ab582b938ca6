import type { ContentType, Registry } from '../schema';
import { USER_UID } from '../users-permissions/content-types';

const pascal = (s: string): string =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/** The names a generated file declares besides the types of the model. */
const RESERVED = ['JSONValue', 'Blocks', 'ListPagination', 'ContentTypes', 'Components', 'ContentTypeInputs', 'RelationRef', 'RelationPosition', 'RelationInput', 'MediaRef', 'MediaInput'];

/**
 * A type's wanted name: its singularName (`Article`), or for a plugin's type the plugin and the name, so that two
 * plugins' types never share one (`plugin::upload.file`: `UploadFile`, `plugin::users-permissions.user`:
 * `UsersPermissionsUser`, as Strapi's GraphQL plugin names them).
 */
const wantedName = (ct: ContentType): string => (ct.uid.startsWith('plugin::') ? pascal(ct.uid.slice('plugin::'.length)) : pascal(ct.singularName));

/** The plugin types that have an input type: the user (`POST /users`, `PUT /users/:id` take it). */
const PLUGIN_INPUTS: ReadonlySet<string> = new Set([USER_UID]);

/** Whether a content type has an input type: every one of the app's, and the plugin types of PLUGIN_INPUTS. */
const hasInput = (ct: ContentType): boolean => !ct.internal || PLUGIN_INPUTS.has(ct.uid);

/**
 * An interface name per content type (its singularName: `Article`; a plugin's type its plugin and name:
 * `UploadFile`, `UsersPermissionsUser`) and component (category and name: `SharedSeo`); a clash gets a numbered
 * suffix.
 *
 * @example
 * typeNames(registry).get('api::article.article'); // 'Article'
 */
export function typeNames(registry: Registry): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set(RESERVED);
  const take = (uid: string, wanted: string): void => {
    let name = /^[A-Za-z]/.test(wanted) ? wanted : `T${wanted}`;
    for (let i = 2; used.has(name); i++) name = `${wanted}${i}`;
    used.add(name);
    names.set(uid, name);
  };
  for (const ct of registry.contentTypes.values()) take(ct.uid, wantedName(ct));
  for (const c of registry.components.values()) take(c.uid, pascal(c.uid));
  return names;
}

/**
 * The input type name of each content type (but the plugins' own, the user's excepted) and component: its type
 * name and `Input` (`ArticleInput`, `SharedSeoInput`, `UsersPermissionsUserInput`), numbered when that name is
 * taken.
 *
 * @example
 * inputNames(registry, typeNames(registry)).get('api::article.article'); // 'ArticleInput'
 */
export function inputNames(registry: Registry, names: ReadonlyMap<string, string>): Map<string, string> {
  const used = new Set([...RESERVED, ...names.values()]);
  const inputs = new Map<string, string>();
  const uids = [...[...registry.contentTypes.values()].filter(hasInput).map((ct) => ct.uid), ...registry.components.keys()];
  for (const uid of uids) {
    const wanted = `${names.get(uid)!}Input`;
    let name = wanted;
    for (let i = 2; used.has(name); i++) name = `${wanted}${i}`;
    used.add(name);
    inputs.set(uid, name);
  }
  return inputs;
}

/**
 * An attribute name as a property key: as it is when it is an identifier, quoted otherwise.
 *
 * @example
 * propertyKey('title'); // 'title'
 * propertyKey('meta-title'); // '"meta-title"'
 */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}
