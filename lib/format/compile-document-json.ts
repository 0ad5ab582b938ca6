import type { PopulateNode } from '../query/types';
import type { Attributes, Registry } from '../schema';
import { formatComponent, formatDocument, TRAILING_SYSTEM, type Selection } from './format-document';
import { copiedJsonOf, flat, jsonOf, storedJsonOf } from './json-value';
import { cachedWriter } from './writer-cache';

type Row = Record<string, unknown>;

/** Writes the JSON text of one stored row; undefined when JSON leaves the key out. */
type ValueJson = (value: unknown) => string | undefined;
type RowJson = (row: Row) => string;

/** Output keys in order, each with the writer of its value (the formatter's `out[key] = ...`, replayed). */
type Entries = Map<string, (row: Row) => string | undefined>;

/**
 * Compiles, for one content type and selection, a function that returns
 * `JSON.stringify(formatDocument(registry, uid, row, selection))` for a stored row without building the
 * formatted document: the registry is walked once here, not once per row, and stored values are written as text
 * instead of being deep-copied and then serialized. Writers are kept per registry and selection shape
 * (writer-cache), and the writers of joined rows and components keep the text of each row object they wrote
 * (stored rows are never mutated in place, see storedJsonOf). Names JSON would order differently (array indexes) or that
 * an object literal cannot hold (`__proto__`) make it fall back to the formatter itself.
 *
 * @example
 * const toJson = compileDocumentJson(registry, 'api::article.article', query);
 * const text = `[${rows.map(toJson).join(',')}]`;
 */
export function compileDocumentJson(registry: Registry, uid: string, selection: Selection): RowJson {
  return cachedWriter(registry, uid, selection, () => compileUncached(registry, uid, selection));
}

function compileUncached(registry: Registry, uid: string, selection: Selection): RowJson {
  try {
    return documentJson(registry, uid, selection);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    return (row) => JSON.stringify(formatDocument(registry, uid, row, selection));
  }
}

class Unsupported extends Error {}

function documentJson(registry: Registry, uid: string, selection: Selection): RowJson {
  const ct = registry.contentType(uid);
  const entries: Entries = new Map();
  set(entries, 'id', (row) => jsonOf(row.id));
  set(entries, 'documentId', (row) => jsonOf(row.documentId));
  attributeEntries(registry, ct.attributes, ct.attributeNames, selection, entries);
  for (const name of TRAILING_SYSTEM) {
    if (!(name in ct.attributes)) continue;
    if (selection.fields === null || selection.fields.includes(name)) set(entries, name, (row) => storedJsonOf(row[name] ?? null));
  }
  const loc = selection.populate.localizations;
  if (loc) {
    const item = documentJson(registry, uid, loc);
    set(entries, 'localizations', (row) => (Array.isArray(row.localizations) ? arrayJson(row.localizations as Row[], item) : undefined));
  }
  return objectJson(entries);
}

function componentJson(registry: Registry, componentUid: string, selection: Selection, dynamicZoneItem: boolean): RowJson {
  const component = registry.component(componentUid);
  const entries: Entries = new Map();
  set(entries, 'id', (row) => jsonOf(row.id));
  attributeEntries(registry, component.attributes, component.attributeNames, selection, entries);
  if (dynamicZoneItem) {
    const text = JSON.stringify(componentUid);
    set(entries, '__component', () => text);
  }
  return objectJson(entries);
}

function attributeEntries(registry: Registry, attributes: Attributes, names: readonly string[], selection: Selection, entries: Entries): void {
  for (const name of names) {
    const attribute = attributes[name]!;
    if (attribute.private) continue;
    if (attribute.kind === 'scalar') {
      if (selection.fields === null || selection.fields.includes(name)) set(entries, name, (row) => storedJsonOf(row[name] ?? null));
      continue;
    }
    const node = selection.populate[name];
    if (!node) continue;
    if (!Object.hasOwn(selection.populate, name)) throw new Unsupported();
    const write = populatedJson(registry, node);
    set(entries, name, (row) => write(row[name]));
  }
}

/** The formatter's formatPopulated, as text. */
function populatedJson(registry: Registry, node: PopulateNode): ValueJson {
  const write = populatedByKind(registry, node);
  if (!node.count) return write;
  return (value) => (value && typeof value === 'object' && !Array.isArray(value) && 'count' in value ? copiedJsonOf(value) : write(value));
}

function populatedByKind(registry: Registry, node: PopulateNode): ValueJson {
  const attribute = node.attribute;
  switch (attribute.kind) {
    case 'relation':
    case 'media': {
      const item = byIdentity(node, documentJson(registry, attribute.target, node));
      const multiple = attribute.kind === 'media' ? attribute.multiple : attribute.toMany;
      return (value) => (Array.isArray(value) ? rowsJson(value, item) : multiple ? '[]' : isRow(value) ? item(value) : 'null');
    }
    case 'component': {
      const item = byIdentity(node, componentJson(registry, attribute.component, node, false));
      if (attribute.repeatable) return (value) => (Array.isArray(value) ? rowsJson(value, item) : '[]');
      return (value) => (isRow(value) ? item(value) : 'null');
    }
    case 'dynamiczone':
      return dynamicZoneJson(registry, node);
    default:
      return copiedJsonOf;
  }
}

/** Items whose component is unknown or not selected (`on`) are left out; writers are compiled per component met. */
function dynamicZoneJson(registry: Registry, node: PopulateNode): ValueJson {
  const writers = new Map<string, RowJson | null>();
  const writerOf = (uid: string): RowJson | null => {
    let writer = writers.get(uid);
    if (writer === undefined) {
      const itemNode = node.on ? node.on[uid] : node;
      writer = !itemNode || !registry.components.has(uid) ? null : dynamicZoneItemJson(registry, uid, itemNode);
      writers.set(uid, writer);
    }
    return writer;
  };
  return (value) => {
    if (!Array.isArray(value)) return '[]';
    let text = '[';
    let first = true;
    for (const item of value) {
      if (!isRow(item)) continue;
      const writer = writerOf(String(item.__component));
      if (!writer) continue;
      text += first ? writer(item) : `,${writer(item)}`;
      first = false;
    }
    return `${text}]`;
  };
}

function dynamicZoneItemJson(registry: Registry, uid: string, itemNode: PopulateNode): RowJson {
  try {
    return componentJson(registry, uid, itemNode, true);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    return (item) => JSON.stringify({ ...formatComponent(registry, uid, item, itemNode), __component: uid });
  }
}

/**
 * `write`, with the text of each row object kept by identity (see storedJsonOf for why that is safe), when the
 * node populates nothing: those are the rows the engine hands out as stored (populated ones are fresh copies
 * every time, not worth a WeakMap entry).
 */
function byIdentity(node: PopulateNode, write: RowJson): RowJson {
  if (Object.keys(node.populate).length > 0) return write;
  const texts = new WeakMap<Row, string>();
  return (row) => {
    let text = texts.get(row);
    if (text === undefined) {
      text = flat(write(row));
      texts.set(row, text);
    }
    return text;
  };
}

/** Rows that are objects, each written by `item` (the formatter's `value.filter(isRow).map(...)`). */
function rowsJson(values: readonly unknown[], item: RowJson): string {
  let text = '[';
  let first = true;
  for (const value of values) {
    if (!isRow(value)) continue;
    text += first ? item(value) : `,${item(value)}`;
    first = false;
  }
  return `${text}]`;
}

/** Every element written by `item`, holes as null (the formatter's `rows.map(...)`). */
function arrayJson(rows: readonly Row[], item: RowJson): string {
  let text = '[';
  for (let i = 0; i < rows.length; i++) {
    const value = i in rows ? item(rows[i]!) : 'null';
    text += i === 0 ? value : `,${value}`;
  }
  return `${text}]`;
}

function objectJson(entries: Entries): RowJson {
  const keys: string[] = [];
  const writers: ((row: Row) => string | undefined)[] = [];
  for (const [key, write] of entries) {
    keys.push(`${JSON.stringify(key)}:`);
    writers.push(write);
  }
  return (row) => {
    let text = '{';
    let first = true;
    for (let i = 0; i < writers.length; i++) {
      const value = writers[i]!(row);
      if (value === undefined) continue;
      text += first ? keys[i]! + value : `,${keys[i]!}${value}`;
      first = false;
    }
    return `${text}}`;
  };
}

/** An object literal's assignment: a key set again keeps its place and takes the new value. */
function set(entries: Entries, key: string, write: (row: Row) => string | undefined): void {
  if (key === '__proto__' || isArrayIndex(key)) throw new Unsupported();
  entries.set(key, write);
}

/** Keys JavaScript orders before all others in an object (and so does JSON.stringify). */
function isArrayIndex(key: string): boolean {
  return /^(0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}

function isRow(v: unknown): v is Row {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
