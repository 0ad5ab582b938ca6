import { vercelStegaCombine } from '@vercel/stega';
import { UPLOAD_FILE_UID, type Attribute, type Attributes, type ContentType, type Registry } from '../schema';
import type { EditUrl } from './edit-url';

type Row = Record<string, unknown>;

/**
 * The attribute types whose string values carry a source map, as Strapi 5's `content-source-maps` service lists
 * them (packages/core/core/src/services/content-source-maps.ts): the value must be a string too, so booleans,
 * numbers, JSON objects and `uid`s (which end up in URLs) stay as they are. Media carry theirs in each file's `url`;
 * `blocks` (and `json` shaped like blocks) in each `text` of their nodes.
 */
const ENCODABLE_TYPES: ReadonlySet<string> = new Set([
  'string', 'text', 'richtext', 'biginteger', 'date', 'time', 'datetime', 'timestamp', 'boolean', 'enumeration',
  'json', 'media', 'email', 'password',
]);

/** Keys never encoded, at any depth (Strapi's list; what is under `localizations` is encoded all the same). */
const EXCLUDED_FIELDS: ReadonlySet<string> = new Set([
  'id', 'documentId', 'locale', 'localizations', 'created_by', 'updated_by', 'created_at', 'updated_at', 'publishedAt',
]);

/** How responses are encoded: the `preview` option, compiled. */
export interface SourceMapSettings {
  /** The link to the field's edit page carried next to Strapi's `strapiSource`; null: none (Strapi's payload). */
  readonly editUrl: EditUrl | null;
  /**
   * With the default `editUrl`: the built-in admins made for the router (createAdmin); the link goes to the edit
   * page of the one the request's app mounts, when there is one (http/admin-links.ts).
   */
  readonly admins?: ReadonlySet<object>;
}

/** A content type or component, as the walk sees it. */
interface Model {
  readonly uid: string;
  readonly kind?: string;
  readonly attributes: Attributes;
}

/** The document a response entry is (every field of it and of what it populates points back to it). */
interface Root {
  readonly ct: ContentType;
  readonly documentId: unknown;
  readonly locale: unknown;
  readonly settings: SourceMapSettings;
}

/** One field's place, as Strapi's `FieldContentSourceMap`. */
interface FieldSource {
  readonly type: string;
  readonly path: string;
  readonly model: string;
  readonly kind?: string;
  readonly fieldPath?: string;
}

/** `localizations` is a relation to the type itself in Strapi's schema (not in the registry's attributes). */
type Step = Attribute | { readonly kind: 'localizations' };

const isObject = (value: unknown): value is Row => typeof value === 'object' && value !== null;

/**
 * Strapi's content source maps (`strapi-encode-source-maps: true`, docs/preview.md): every string field of the
 * formatted v5 documents `data` (one or a list of `uid`), of their populated relations, media, components and
 * dynamic zones, gets the invisible stega characters of `@vercel/stega` appended, which decode to
 * `{ strapiSource, href }`: `strapiSource` is Strapi's query string (`documentId`, `type`, `path`, `model`, `kind`,
 * `locale`, `fieldPath`: the document of the entry, the field's dotted path in it with array indices, the type or
 * component that declares it); `href` the edit page of `settings.editUrl` (absent when it is null). A new value:
 * `data` is not changed.
 *
 * @example
 * const encoded = encodeSourceMaps(registry, 'api::article.article', doc, { editUrl: null });
 * vercelStegaDecode(encoded.title); // { strapiSource: 'documentId=...&type=string&path=title&model=api%3A%3Aarticle.article&kind=collectionType' }
 */
export function encodeSourceMaps(registry: Registry, uid: string, data: unknown, settings: SourceMapSettings): unknown {
  if (Array.isArray(data)) return data.map((item) => encodeSourceMaps(registry, uid, item, settings));
  if (!isObject(data)) return data;
  const ct = registry.contentType(uid);
  const root: Root = { ct, documentId: data.documentId, locale: data.locale, settings };
  return encodeEntry(registry, ct, data, null, root);
}

function encodeEntry(registry: Registry, model: Model, entry: Row, path: string | null, root: Root): Row {
  const out: Row = { ...entry };
  for (const key of Object.keys(out)) {
    const step: Step | undefined = key === 'localizations' && model === root.ct ? { kind: 'localizations' } : model.attributes[key];
    if (!step) continue;
    const keyPath = path === null ? key : `${path}.${key}`;
    if (step.kind !== 'localizations' && !EXCLUDED_FIELDS.has(key)) out[key] = encodeValue(step, out[key], keyPath, model, root);
    const value = out[key];
    if (value !== null && value !== undefined) out[key] = encodeNested(registry, step, value, keyPath, model, root);
  }
  return out;
}

/** The value of one attribute, with its source map when it gets one. */
function encodeValue(attribute: Attribute, value: unknown, path: string, model: Model, root: Root): unknown {
  const field = { path, model: model.uid, kind: model.kind };
  if (attribute.kind === 'scalar' && (attribute.type === 'blocks' || attribute.type === 'json') && isBlocksLike(value)) {
    return encodeBlocks(value, path, { ...field, fieldPath: path }, root);
  }
  if (attribute.kind === 'media' && isObject(value)) {
    const file = (item: unknown, itemPath: string): unknown =>
      isObject(item) && typeof item.url === 'string' ? { ...item, url: encodeField(item.url, { ...field, type: 'media', path: `${itemPath}.url` }, root) } : item;
    return Array.isArray(value) ? value.map((item, i) => file(item, `${path}.${i}`)) : file(value, path);
  }
  if (attribute.kind === 'scalar' && ENCODABLE_TYPES.has(attribute.type) && typeof value === 'string') {
    return encodeField(value, { ...field, type: attribute.type }, root);
  }
  return value;
}

/** What a relation, media, component or dynamic zone holds, walked with its own model (array items by index). */
function encodeNested(registry: Registry, step: Step, value: unknown, path: string, model: Model, root: Root): unknown {
  const each = (modelOf: (item: Row) => Model | undefined): unknown => {
    const one = (item: unknown, itemPath: string): unknown => {
      const itemModel = isObject(item) && !Array.isArray(item) ? modelOf(item) : undefined;
      return itemModel ? encodeEntry(registry, itemModel, item as Row, itemPath, root) : item;
    };
    return Array.isArray(value) ? value.map((item, i) => one(item, `${path}.${i}`)) : one(value, path);
  };
  switch (step.kind) {
    case 'localizations':
      return each(() => model);
    case 'relation':
      return each(() => registry.contentTypes.get(step.target));
    case 'media':
      return each(() => registry.contentTypes.get(UPLOAD_FILE_UID));
    case 'component':
      return each(() => registry.components.get(step.component));
    case 'dynamiczone':
      return Array.isArray(value) ? each((item) => registry.components.get(String(item.__component))) : value;
    default:
      return value;
  }
}

/** Strapi's test for a blocks value: an array of nodes, each with a string `type` and an array of `children`. */
function isBlocksLike(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.every((node) => isObject(node) && typeof node.type === 'string' && Array.isArray(node.children));
}

/** The `text` of every node of a blocks value (by its path in the value), the rest as it is. */
function encodeBlocks(node: unknown, path: string, field: Omit<FieldSource, 'type'>, root: Root): unknown {
  if (Array.isArray(node)) return node.map((child, i) => encodeBlocks(child, `${path}.${i}`, field, root));
  if (!isObject(node)) return node;
  const out: Row = { ...node };
  if (typeof out.text === 'string') out.text = encodeField(out.text, { ...field, type: 'blocks', path: `${path}.text` }, root);
  if (Array.isArray(out.children)) out.children = out.children.map((child, i) => encodeBlocks(child, `${path}.children.${i}`, field, root));
  return out;
}

/** `text` followed by the hidden payload of its field (always: dates and URLs too, as Strapi passes `skip: false`). */
function encodeField(text: string, field: FieldSource, root: Root): string {
  const source = new URLSearchParams();
  source.set('documentId', String(root.documentId));
  source.set('type', field.type);
  source.set('path', field.path);
  if (field.model) source.set('model', field.model);
  if (field.kind) source.set('kind', field.kind);
  if (root.locale) source.set('locale', String(root.locale));
  if (field.fieldPath) source.set('fieldPath', field.fieldPath);
  const payload: { strapiSource: string; href?: string } = { strapiSource: source.toString() };
  const { editUrl } = root.settings;
  if (editUrl) payload.href = editUrl(hrefValues(root, field.fieldPath ?? field.path));
  return vercelStegaCombine(text, payload, false);
}

function hrefValues(root: Root, path: string) {
  const { ct } = root;
  const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  return { model: ct.uid, kind: ct.kind, singularName: ct.singularName, pluralName: ct.pluralName, documentId: text(root.documentId), locale: text(root.locale), path };
}
