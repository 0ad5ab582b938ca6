import type { Ability } from '../auth/types';
import { UPLOAD_CONTENT_API } from '../auth/check-actions';
import type { Attribute, Attributes, ContentType, Registry } from '../schema';

/** Who asked, as the model endpoint tells the admin: a user, an API token, the host's own caller, or nobody (Public). */
export type ModelCaller =
  | { readonly kind: 'user'; readonly id: number; readonly username: string; readonly email: string; readonly role: { readonly name: string; readonly type: string } | null }
  | { readonly kind: 'token'; readonly type: 'full-access' | 'read-only' | 'custom' }
  | { readonly kind: 'host'; readonly subject: string }
  | null;

/** What the caller may do with one content type (Content API actions; `publish`: a write with `status=published`). */
export interface ContentTypePermissions {
  find: boolean;
  findOne: boolean;
  create: boolean;
  update: boolean;
  delete: boolean;
  publish: boolean;
  /** Reading drafts (`?status=draft`): `<uid>.findDrafts`, or `find`/`findOne` with `auth.drafts: 'strapi'`. */
  readDrafts: boolean;
}

type Json = Record<string, unknown>;

/** What the model needs besides the registry: display names (schema `info.displayName`), whether media are served. */
export interface ModelSources {
  readonly displayNames: ReadonlyMap<string, string>;
  readonly upload: boolean;
}

/**
 * The model as the admin reads it (`GET /content-router/model`, docs/admin.md): the content types the caller may
 * do at least one action on, each with its schema.json attributes and its permissions; the components those types
 * reach (and only those); the locales when a type is localized; the media permissions; the caller.
 * Attributes are the schema's declarations, never values: a password attribute loses its `default` and is
 * flagged `private: true` (no answer ever carries it).
 *
 * @example
 * describeModel(registry, ability, null, { displayNames: new Map(), upload: true }).contentTypes[0].permissions.delete; // false
 */
export function describeModel(registry: Registry, ability: Ability, caller: ModelCaller, sources: ModelSources): Json {
  const contentTypes: Json[] = [];
  const reached = new Set<string>();
  for (const ct of registry.contentTypes.values()) {
    if (ct.internal) continue;
    const permissions = permissionsOf(ct, ability);
    if (!Object.values(permissions).some(Boolean)) continue;
    collectComponents(registry, ct.attributes, reached);
    contentTypes.push({
      uid: ct.uid,
      kind: ct.kind,
      singularName: ct.singularName,
      pluralName: ct.pluralName,
      displayName: sources.displayNames.get(ct.uid) ?? capitalized(ct.singularName),
      route: ct.kind === 'collectionType' ? ct.pluralName : ct.singularName,
      draftAndPublish: ct.draftAndPublish,
      localized: ct.localized,
      attributes: declaredAttributes(ct.attributes, ct.attributeNames),
      permissions,
    });
  }
  const components = [...reached].sort().map((uid) => {
    const c = registry.component(uid);
    return { uid, category: c.category, displayName: sources.displayNames.get(uid) ?? capitalized(uid.slice(uid.indexOf('.') + 1)), attributes: declaredAttributes(c.attributes, c.attributeNames) };
  });
  const localized = contentTypes.some((ct) => ct.localized === true);
  const { locales, defaultLocale, names } = registry.i18n;
  return {
    contentTypes,
    components,
    locales: localized ? locales.map((code) => ({ code, name: names[code] ?? code, isDefault: code === defaultLocale })) : [],
    media: mediaPermissions(ability, sources.upload),
    caller,
  };
}

function permissionsOf(ct: ContentType, ability: Ability): ContentTypePermissions {
  const can = (action: string): boolean => ability.can(`${ct.uid}.${action}`);
  const create = can('create');
  const update = can('update');
  return {
    find: can('find'),
    findOne: can('findOne'),
    create,
    update,
    delete: can('delete'),
    // Strapi 5's Content API publishes with a write (`?status=published`): create or update is what it takes.
    publish: ct.draftAndPublish && (create || update),
    readDrafts: ct.draftAndPublish && ability.canReadDrafts(ct.uid),
  };
}

/** The upload plugin's actions; `update` (file info, `POST /upload?id=`) takes `upload`, as in Strapi. */
function mediaPermissions(ability: Ability, served: boolean): Json {
  const can = (action: string): boolean => served && ability.can(`${UPLOAD_CONTENT_API}.${action}`);
  return { find: can('find'), findOne: can('findOne'), upload: can('upload'), update: can('upload'), destroy: can('destroy') };
}

/** Every component `attributes` reach, nested ones and dynamic zones' included, added to `into`. */
function collectComponents(registry: Registry, attributes: Attributes, into: Set<string>): void {
  for (const attribute of Object.values(attributes)) {
    const uids = attribute.kind === 'component' ? [attribute.component] : attribute.kind === 'dynamiczone' ? attribute.components : [];
    for (const uid of uids) {
      if (into.has(uid)) continue;
      into.add(uid);
      collectComponents(registry, registry.component(uid).attributes, into);
    }
  }
}

/** The schema's own attributes in declaration order, as written in schema.json (see declaredAttribute). */
function declaredAttributes(attributes: Attributes, names: readonly string[]): Json {
  const out: Json = {};
  for (const name of names) {
    const attribute = attributes[name];
    if (attribute) out[name] = declaredAttribute(attribute);
  }
  return out;
}

/**
 * One attribute as schema.json declares it. A custom field gets the type it stores (as Strapi's loaded models
 * have it: `{ type: 'string', customField: 'plugin::color-picker.color' }`); a password never carries a default.
 */
function declaredAttribute(attribute: Attribute): Json {
  const raw: Json = structuredClone({ ...attribute.raw });
  if (attribute.kind === 'scalar' && raw.type === 'customField') raw.type = attribute.type;
  if (attribute.kind === 'scalar' && attribute.type === 'password') {
    delete raw.default;
    raw.private = true;
  }
  return raw;
}

const capitalized = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);
