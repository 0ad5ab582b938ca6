import type { Attribute, Component, ContentType, Registry, ScalarAttribute } from '../schema';
import { UPLOAD_FILE_UID } from '../schema/types';

/** A JSON Schema (2020-12, OpenAPI 3.1's dialect) as a plain object. */
export type JsonSchema = Record<string, unknown>;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

const pascal = (s: string): string => s.split(/[^A-Za-z0-9]+/).filter(Boolean).map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');

/**
 * The name of a content type's document schema, from its uid alone: `api::article.article` -> `Article`,
 * `api::blog.post` -> `BlogPost`, `plugin::upload.file` -> `UploadFile`, `plugin::users-permissions.user` ->
 * `UsersPermissionsUser`.
 */
export function typeSchemaName(uid: string): string {
  const [api = '', name = ''] = uid.replace(/^[a-z]+::/, '').split('.');
  return uid.startsWith('api::') && api === name ? pascal(name) : pascal(`${api}.${name}`);
}

const typeRef = (uid: string): JsonSchema => ref(typeSchemaName(uid));

/** `shared.seo` -> `SharedSeoComponent`. */
export function componentSchemaName(uid: string): string {
  return `${pascal(uid)}Component`;
}

const SCALARS: Record<string, JsonSchema> = {
  string: { type: 'string' },
  text: { type: 'string' },
  richtext: { type: 'string' },
  email: { type: 'string', format: 'email' },
  password: { type: 'string' },
  uid: { type: 'string' },
  integer: { type: 'integer' },
  // Strapi answers a biginteger as a string (a JavaScript number would lose digits).
  biginteger: { type: 'string', pattern: '^-?[0-9]+$' },
  float: { type: 'number' },
  decimal: { type: 'number' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  time: { type: 'string', pattern: '^[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,3})?)?$' },
  datetime: { type: 'string', format: 'date-time' },
  timestamp: { type: 'string', format: 'date-time' },
  blocks: { type: 'array', items: { type: 'object' } },
};

function scalarSchema(a: ScalarAttribute): JsonSchema {
  if (a.type === 'json') return {};
  if (a.type === 'enumeration') return { enum: [...(a.enum ?? []), null] };
  return nullable(SCALARS[a.type] ?? {});
}

/** The schema of one attribute's value in an answer (relations, media and components as populated). */
export function attributeSchema(a: Attribute): JsonSchema {
  switch (a.kind) {
    case 'scalar':
      return scalarSchema(a);
    case 'media':
      return a.multiple ? nullable({ type: 'array', items: ref('UploadFile') }) : nullable(ref('UploadFile'));
    case 'relation':
      return a.toMany ? { anyOf: [{ type: 'array', items: typeRef(a.target) }, ref('RelationCount')] } : nullable(typeRef(a.target));
    case 'component':
      return a.repeatable ? { type: 'array', items: ref(componentSchemaName(a.component)) } : nullable(ref(componentSchemaName(a.component)));
    case 'dynamiczone':
      return { type: 'array', items: { anyOf: a.components.map((c) => ref(`${componentSchemaName(c)}Entry`)) } };
  }
}

function properties(attributes: Readonly<Record<string, Attribute>>): Record<string, JsonSchema> {
  return Object.fromEntries(Object.values(attributes).filter((a) => !a.private).map((a) => [a.name, attributeSchema(a)]));
}

/**
 * The document schema of a content type as the Content API answers it: `id` and `documentId` always, every
 * other field only when selected (`fields`) or populated, private attributes never; no other key.
 */
export function documentSchema(ct: ContentType): JsonSchema {
  const props: Record<string, JsonSchema> = { ...properties(ct.attributes), id: { type: 'integer' }, documentId: { type: 'string' } };
  if (ct.localized) props.localizations = { type: 'array', items: typeRef(ct.uid) };
  if (ct.uid === UPLOAD_FILE_UID) props.isUrlSigned = { type: 'boolean' };
  const totals = totalsSchema(ct);
  if (totals) props.meta = totals;
  return { type: 'object', title: ct.uid, required: ['id', 'documentId'], properties: props, additionalProperties: false };
}

/**
 * `meta` of a document whose populate asks totals (`populate[<rel>][withCount]=true`): `{ <rel>: { count } }` for
 * each relation that holds several rows (to-many relations, media `multiple`, `localizations`); none when the
 * type has none, or an attribute named `meta` (withCount is then a 400).
 */
function totalsSchema(ct: ContentType): JsonSchema | undefined {
  if (Object.hasOwn(ct.attributes, 'meta')) return undefined;
  const names = Object.values(ct.attributes)
    .filter((a) => !a.private && ((a.kind === 'relation' && a.toMany) || (a.kind === 'media' && a.multiple)))
    .map((a) => a.name);
  if (ct.localized) names.push('localizations');
  if (names.length === 0) return undefined;
  return {
    type: 'object',
    description: 'Only with `populate[<relation>][withCount]=true`: the total of each such relation for this entry (populate filters applied), beside its page of rows.',
    properties: Object.fromEntries(names.map((name) => [name, ref('RelationCount')])),
    additionalProperties: false,
  };
}

/** A component as answered: its `id` and attributes (a dynamic zone entry adds `__component`). */
export function componentSchema(c: Component): JsonSchema {
  return { type: 'object', title: c.uid, required: ['id'], properties: { ...properties(c.attributes), id: { type: 'integer' } }, additionalProperties: false };
}

/** The schema of one attribute's value in a request body (`data`): relations and media by id or documentId. */
export function inputAttributeSchema(a: Attribute): JsonSchema {
  const key = { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'object' }] };
  switch (a.kind) {
    case 'scalar':
      return a.type === 'password' ? nullable({ type: 'string' }) : a.type === 'biginteger' ? nullable({ type: ['string', 'integer'] }) : scalarSchema(a);
    case 'media':
      return a.multiple ? nullable({ type: 'array', items: key }) : nullable(key);
    case 'relation':
      return nullable({ anyOf: [key, { type: 'array', items: key }, { type: 'object', description: '{ connect, disconnect, set }' }] });
    case 'component':
      return a.repeatable ? nullable({ type: 'array', items: { type: 'object' } }) : nullable({ type: 'object' });
    case 'dynamiczone':
      return nullable({ type: 'array', items: { type: 'object', required: ['__component'], properties: { __component: { enum: a.components } } } });
  }
}

/** `{ data: { ...writable attributes } }`: the body of a create or an update. */
export function inputSchema(ct: ContentType): JsonSchema {
  const data: Record<string, JsonSchema> = Object.fromEntries(Object.values(ct.attributes).filter((a) => !a.system).map((a) => [a.name, inputAttributeSchema(a)]));
  // Accepted and dropped, as Strapi does (lib/schema/validate-body/check-keys.ts): the query says status and locale.
  data.publishedAt = { description: 'Ignored: `?status=` says which version is written' };
  if (ct.localized) {
    data.locale = { type: 'string', description: 'Ignored: `?locale=` says which locale is written' };
    data.localizations = { description: 'Ignored' };
  }
  return {
    type: 'object',
    required: ['data'],
    properties: { data: { type: 'object', properties: data, additionalProperties: false } },
  };
}

/** Every named schema of the document: documents per content type (keyed by uid refs), components, envelopes. */
export function registrySchemas(registry: Registry): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const ct of registry.contentTypes.values()) {
    out[typeSchemaName(ct.uid)] = documentSchema(ct);
    if (!ct.internal) out[`${typeSchemaName(ct.uid)}Input`] = inputSchema(ct);
  }
  for (const c of registry.components.values()) {
    const name = componentSchemaName(c.uid);
    out[name] = componentSchema(c);
    const entry = componentSchema(c) as { properties: Record<string, JsonSchema>; required: string[] };
    out[`${name}Entry`] = { ...entry, required: ['__component', ...entry.required], properties: { __component: { const: c.uid }, ...entry.properties } };
  }
  return out;
}
