/** The attributes Strapi adds to every loaded model (timestamps, publishedAt, creator fields; i18n's locale fields). */
const ADDED_BY_STRAPI: ReadonlySet<string> = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy', 'locale', 'localizations']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A definition as a schema file: loaded models (`strapi.contentTypes[uid]`, `strapi.components[uid]`) are accepted
 * too. Strapi's `createContentType` (strapi/strapi packages/core/core/src/domain/content-type/index.ts) keeps the
 * file as it was in `__schema__` (`pickSchema`: connection, collectionName, info, options, pluginOptions,
 * attributes, kind) and adds `uid`, `modelType`, `modelName`, `actions`, `lifecycles` and its own attributes
 * (createdAt, updatedAt, publishedAt, createdBy, updatedBy; i18n adds locale and localizations): `__schema__` is
 * read with the model's `uid`; a model without it has Strapi's own attributes left out. Anything else is returned
 * as it is.
 *
 * @example
 * unwrapLoadedModel(strapi.contentTypes['api::article.article']); // { uid: 'api::article.article', kind, info, attributes, ... }
 */
export function unwrapLoadedModel(def: unknown): unknown {
  if (!isObject(def)) return def;
  const schema = def.__schema__;
  if (isObject(schema) && isObject(schema.attributes)) {
    return typeof def.uid === 'string' ? { ...schema, uid: def.uid } : schema;
  }
  if (def.modelType === undefined || !isObject(def.attributes)) return def;
  const attributes = Object.fromEntries(Object.entries(def.attributes).filter(([name]) => !ADDED_BY_STRAPI.has(name)));
  return { ...def, attributes };
}
