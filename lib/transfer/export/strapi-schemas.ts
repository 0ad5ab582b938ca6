import type { Attributes, Component, ContentType, Registry } from '../../schema';

type Json = Record<string, unknown>;

const CREATOR = { type: 'relation', relation: 'oneToOne', target: 'admin::user', configurable: false, writable: false, visible: false, useJoinTable: false, private: true };

const pascal = (text: string): string => text.replace(/(^|[-_.:\s]+)(\w)/g, (_, __, c: string) => c.toUpperCase());

function rawAttributes(attributes: Attributes, names: readonly string[]): Json {
  return Object.fromEntries(names.map((n) => [n, attributes[n]!.raw]));
}

/** The attributes Strapi adds to every content type it loads (timestamps, creators, locale, localizations). */
export function strapiSystemAttributes(uid: string, collectionName: string, localized: boolean): Json {
  return {
    createdAt: { type: 'datetime' },
    updatedAt: { type: 'datetime' },
    publishedAt: { type: 'datetime', configurable: false, writable: true, visible: true },
    createdBy: CREATOR,
    updatedBy: CREATOR,
    locale: { writable: true, private: !localized, configurable: false, visible: false, type: 'string' },
    localizations: {
      type: 'relation', relation: 'oneToMany', target: uid, writable: false, private: !localized, configurable: false, visible: false, unstable_virtual: true,
      joinColumn: { name: 'document_id', referencedColumn: 'document_id', referencedTable: collectionName },
    },
  };
}

/** A content type as Strapi's loaded model (what `strapi export` writes in schemas/): the file plus Strapi's fields. */
function contentTypeSchema(ct: ContentType): Json {
  const attributes: Json = { ...rawAttributes(ct.attributes, ct.attributeNames), ...strapiSystemAttributes(ct.uid, ct.collectionName, ct.localized) };
  const [, name = ct.singularName] = /\.([^.]+)$/.exec(ct.uid) ?? [];
  return {
    collectionName: ct.collectionName,
    info: { singularName: ct.singularName, pluralName: ct.pluralName, displayName: pascal(ct.singularName) },
    options: { draftAndPublish: ct.draftAndPublish },
    ...(ct.localized ? { pluginOptions: { i18n: { localized: true } } } : {}),
    attributes,
    kind: ct.kind,
    modelType: 'contentType',
    modelName: name,
    uid: ct.uid,
    globalId: pascal(name),
  };
}

function componentSchema(c: Component): Json {
  const name = c.uid.slice(c.category.length + 1);
  return {
    collectionName: c.collectionName,
    info: { displayName: pascal(name) },
    options: {},
    attributes: rawAttributes(c.attributes, c.attributeNames),
    modelType: 'component',
    modelName: name,
    uid: c.uid,
    globalId: `Component${pascal(c.category)}${pascal(name)}`,
  };
}

/**
 * The schemas of the model as `strapi export` writes them, for the uids an import did not keep Strapi's own
 * schema of. `strapi import` compares them with its project's: a difference (a display name, say) is shown and
 * asks for confirmation (`--force` gives it).
 */
export function modelSchemas(registry: Registry): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const ct of registry.contentTypes.values()) if (!ct.internal) out.set(ct.uid, contentTypeSchema(ct));
  for (const c of registry.components.values()) out.set(c.uid, componentSchema(c));
  return out;
}
