import { UPLOAD_FILE_UID, type Attribute, type Attributes, type ContentType, type Registry } from '../../schema';
import { folderPathProblem } from '../media-folders';
import { toStoredScalar } from './scalar-value';

type Data = Record<string, unknown>;

/** How embedded values are completed: component ids, and the relations and media the links give an owner. */
export interface RowContext {
  readonly registry: Registry;
  /** The stored id of component `uid`'s source id (the scan records it and answers it unchanged). */
  componentId(uid: string, sourceId: number): number;
  /** Sets the relation and media fields of an owner (a row or a component) from its links (nothing in the scan). */
  fillLinks(type: string, sourceId: number, attributes: Attributes, out: Data): void;
}

/** The system fields of an entity's data; a file's `folderPath` (Strapi's, private) is read apart (media-folders.ts). */
const SYSTEM = new Set(['documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale']);
const FILE_SYSTEM = new Set([...SYSTEM, 'folderPath']);

/** A value of the export in a problem's message, cut short (a hostile value may be megabytes long). */
const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);

class FieldProblem extends Error {
  constructor(readonly path: string, message: string) {
    super(message);
  }
}

const join = (path: string, key: string | number): string => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/** A component object `{ id, ...attributes }` (with `__component` in a dynamic zone) in its stored form. */
function toComponent(ctx: RowContext, uid: string, value: unknown, path: string, zone: boolean): Data {
  if (!isObject(value)) throw new FieldProblem(path, `expected a component object, got ${show(value)}`);
  const component = ctx.registry.components.get(uid);
  if (!component) throw new FieldProblem(path, `component ${uid} is not in the model`);
  const sourceId = value.id;
  if (!Number.isSafeInteger(sourceId)) throw new FieldProblem(join(path, 'id'), 'a component needs its integer id');
  const out: Data = { id: ctx.componentId(uid, sourceId as number) };
  if (zone) out.__component = uid;
  setEmpty(component.attributeNames, component.attributes, out);
  convertAttributes(ctx, component.attributes, value, path, out, new Set(['id', ...(zone ? ['__component'] : [])]));
  ctx.fillLinks(uid, sourceId as number, component.attributes, out);
  return out;
}

/** Every stored attribute at its empty value (null, or [] for the to-many kinds); `mappedBy` sides are not stored. */
function setEmpty(names: readonly string[], attributes: Attributes, out: Data): void {
  for (const name of names) {
    const a = attributes[name]!;
    if (a.kind !== 'relation' || a.owner) out[name] = emptyValue(a);
  }
}

/** The value of an attribute missing from the export: null, or [] for the to-many kinds. */
export function emptyValue(a: Attribute): unknown {
  if (a.kind === 'media') return a.multiple ? [] : null;
  if (a.kind === 'relation') return a.toMany ? [] : null;
  if (a.kind === 'component') return a.repeatable ? [] : null;
  return a.kind === 'dynamiczone' ? [] : null;
}

function convertAttribute(ctx: RowContext, a: Attribute, value: unknown, path: string): unknown {
  if (a.kind === 'scalar') {
    try {
      return toStoredScalar(a, value);
    } catch (error) {
      throw new FieldProblem(path, `${(error as Error).message} (${a.type})`);
    }
  }
  if (a.kind === 'relation' || a.kind === 'media') {
    throw new FieldProblem(path, `a ${a.kind} inside the entity's data: Strapi exports ${a.kind === 'media' ? 'media' : 'relations'} as links`);
  }
  if (value === null || value === undefined) return emptyValue(a);
  if (a.kind === 'component' && !a.repeatable) return toComponent(ctx, a.component, value, path, false);
  if (!Array.isArray(value)) throw new FieldProblem(path, `expected an array, got ${show(value)}`);
  if (a.kind === 'component') return value.map((item, i) => toComponent(ctx, a.component, item, join(path, i), false));
  return value.map((item, i) => {
    const uid = isObject(item) ? item.__component : undefined;
    if (typeof uid !== 'string' || !a.components.includes(uid)) {
      throw new FieldProblem(join(join(path, i), '__component'), `${show(uid)} is not one of the zone's components (${a.components.join(', ')})`);
    }
    return toComponent(ctx, uid, item, join(path, i), true);
  });
}

function convertAttributes(ctx: RowContext, attributes: Attributes, data: Data, path: string, out: Data, allowed: ReadonlySet<string>): void {
  for (const [key, value] of Object.entries(data)) {
    if (allowed.has(key)) continue;
    const a = Object.hasOwn(attributes, key) ? attributes[key] : undefined; // never Object.prototype's `constructor`

    if (!a || a.system) throw new FieldProblem(join(path, key.length > 60 ? `${key.slice(0, 57)}...` : key), 'is not an attribute of the model');
    out[key] = convertAttribute(ctx, a, value, join(path, key));
  }
}

function required(data: Data, key: string, check: (v: unknown) => boolean, what: string): unknown {
  if (!check(data[key])) throw new FieldProblem(key, `${what}, got ${show(data[key])}`);
  return data[key];
}

/**
 * An exported entity of content type `ct` as a stored row (docs/storage-model.md) without its `id`: the
 * documentId, locale, status and timestamps, every attribute (missing ones empty), components with their
 * stored ids, relations and media from the links. Throws `<field>: <problem>` when the data does not fit the model.
 *
 * @example
 * entityToRow(ctx, registry.contentType('api::article.article'), entity.data)
 */
export function entityToRow(ctx: RowContext, ct: ContentType, sourceId: number, data: unknown): Data {
  try {
    if (!isObject(data)) throw new FieldProblem('data', 'is not an object');
    const documentId = required(data, 'documentId', (v) => typeof v === 'string' && v !== '', 'expected a documentId string');
    const locale = data.locale ?? null;
    if (ct.localized ? !ctx.registry.i18n.locales.includes(locale as string) : locale !== null) {
      throw new FieldProblem('locale', ct.localized ? `${show(locale)} is not a configured locale (${ctx.registry.i18n.locales.join(', ')})` : `${show(locale)}: the type is not localized`);
    }
    const stamp = (key: string, optional: boolean): string | null => {
      const v = data[key];
      if (optional && (v === null || v === undefined)) return null;
      try {
        return toStoredScalar({ type: 'datetime' } as never, v) as string;
      } catch (error) {
        throw new FieldProblem(key, (error as Error).message);
      }
    };
    const createdAt = stamp('createdAt', false);
    const updatedAt = stamp('updatedAt', true) ?? createdAt;
    const publishedAt = stamp('publishedAt', ct.draftAndPublish) ?? (ct.draftAndPublish ? null : createdAt);
    const status = ct.draftAndPublish && publishedAt === null ? 'draft' : 'published';
    const row: Data = { documentId, locale: ct.localized ? locale : null, _status: status, publishedAt, createdAt, updatedAt };
    setEmpty(ct.attributeNames, ct.attributes, row);
    convertAttributes(ctx, ct.attributes, data, '', row, ct.uid === UPLOAD_FILE_UID ? FILE_SYSTEM : SYSTEM);
    if (ct.uid === UPLOAD_FILE_UID && data.folderPath !== undefined && data.folderPath !== null) {
      const problem = folderPathProblem(data.folderPath);
      if (problem) throw new FieldProblem('folderPath', problem);
      row.folderPath = data.folderPath; // kept as it came (never served: private in Strapi), written back by an export
    }
    ctx.fillLinks(ct.uid, sourceId, ct.attributes, row);
    return row;
  } catch (error) {
    if (error instanceof FieldProblem) throw new Error(`${ct.uid} id ${sourceId}, field ${error.path}: ${error.message}`);
    throw error;
  }
}
