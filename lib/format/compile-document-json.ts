import type { PopulateNode } from '../query/types';
import type { Attribute, Attributes, Registry, ScalarType } from '../schema';
import { formatComponent, formatDocument, TRAILING_SYSTEM, type Selection } from './format-document';
import { JsonBytes } from './json-bytes';
import { writeCopiedJson } from './json-value';
import { objectJson } from './object-json';
import { arrayJson, byIdentity, constantEntry, entry, isRow, plainEntry, rowsJson, set, storedEntry, Unsupported, type Entries, type Row, type RowWrite, type ValueWrite } from './row-json';
import { cachedWriter } from './writer-cache';
import { totalsJson } from './populate-totals';

export type { RowWrite } from './row-json';

/**
 * Compiles, for one content type and selection, a function that writes the UTF-8 bytes of
 * `JSON.stringify(formatDocument(registry, uid, row, selection))` for a stored row into a JsonBytes, without
 * building the formatted document nor a string: the registry is walked once here, not once per row, and stored
 * values are written as they are instead of being deep-copied and then serialized. Writers are kept per registry
 * and selection shape (writer-cache), and the writers of joined rows and components keep the bytes of each row
 * object they wrote (stored rows are never mutated in place, see writeStoredJson). Names JSON would order
 * differently (array indexes) or that an object literal cannot hold (`__proto__`) make it fall back to the
 * formatter itself.
 *
 * @example
 * const write = compileDocumentBytes(registry, 'api::article.article', query);
 * const out = new JsonBytes();
 * write(row, out);
 * out.toBuffer();
 */
export function compileDocumentBytes(registry: Registry, uid: string, selection: Selection): RowWrite {
  return cachedWriter(registry, uid, selection, () => compileUncached(registry, uid, selection));
}

/**
 * {@link compileDocumentBytes} as text: `JSON.stringify(formatDocument(registry, uid, row, selection))`.
 *
 * @example
 * compileDocumentJson(registry, 'api::article.article', query)(row) // '{"id":1,"documentId":"abc",...}'
 */
export function compileDocumentJson(registry: Registry, uid: string, selection: Selection): (row: Row) => string {
  const write = compileDocumentBytes(registry, uid, selection);
  return (row) => {
    const out = new JsonBytes(1024);
    write(row, out);
    return out.toBuffer().toString('utf8');
  };
}

/** A document's writer; a selection that populates nothing keeps the bytes of each row object (row-json byIdentity). */
function compileUncached(registry: Registry, uid: string, selection: Selection): RowWrite {
  try {
    return byIdentity(selection, documentJson(registry, uid, selection));
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    return (row, out) => out.text(JSON.stringify(formatDocument(registry, uid, row, selection)));
  }
}

function documentJson(registry: Registry, uid: string, selection: Selection): RowWrite {
  const ct = registry.contentType(uid);
  const entries: Entries = new Map();
  set(entries, 'id', plainEntry('id'));
  set(entries, 'documentId', plainEntry('documentId'));
  attributeEntries(registry, ct.attributes, ct.attributeNames, selection, entries);
  for (const name of TRAILING_SYSTEM) {
    if (!(name in ct.attributes)) continue;
    if (selection.fields === null || selection.fields.includes(name)) set(entries, name, storedEntry(name, scalarType(ct.attributes[name])));
  }
  const loc = selection.populate.localizations;
  if (loc) {
    const item = documentJson(registry, uid, loc);
    set(entries, 'localizations', entry('localizations', (value, out) => {
      if (!Array.isArray(value)) return false;
      arrayJson(value as Row[], item, out);
      return true;
    }));
  }
  const totals = totalsJson(selection.populate);
  if (totals) set(entries, 'meta', entry('meta', totals));
  return objectJson(entries);
}

function componentJson(registry: Registry, componentUid: string, selection: Selection, dynamicZoneItem: boolean): RowWrite {
  const component = registry.component(componentUid);
  const entries: Entries = new Map();
  set(entries, 'id', plainEntry('id'));
  attributeEntries(registry, component.attributes, component.attributeNames, selection, entries);
  if (dynamicZoneItem) set(entries, '__component', constantEntry(componentUid));
  return objectJson(entries);
}

function attributeEntries(registry: Registry, attributes: Attributes, names: readonly string[], selection: Selection, entries: Entries): void {
  for (const name of names) {
    const attribute = attributes[name]!;
    if (attribute.private) continue;
    if (attribute.kind === 'scalar') {
      if (selection.fields === null || selection.fields.includes(name)) set(entries, name, storedEntry(name, attribute.type));
      continue;
    }
    const node = selection.populate[name];
    if (!node) continue;
    if (!Object.hasOwn(selection.populate, name)) throw new Unsupported();
    set(entries, name, entry(name, populatedJson(registry, node)));
  }
}

/** The type of a scalar attribute (a system field's), undefined for any other. */
const scalarType = (attribute: Attribute | undefined): ScalarType | undefined => (attribute?.kind === 'scalar' ? attribute.type : undefined);

/** The formatter's formatPopulated, as bytes. */
function populatedJson(registry: Registry, node: PopulateNode): ValueWrite {
  const write = populatedByKind(registry, node);
  if (!node.count) return write;
  return (value, out) => (value && typeof value === 'object' && !Array.isArray(value) && 'count' in value ? writeCopiedJson(value, out) : write(value, out));
}

function populatedByKind(registry: Registry, node: PopulateNode): ValueWrite {
  const attribute = node.attribute;
  switch (attribute.kind) {
    case 'relation':
    case 'media': {
      const item = byIdentity(node, documentJson(registry, attribute.target, node));
      const multiple = attribute.kind === 'media' ? attribute.multiple : attribute.toMany;
      return (value, out) => {
        if (Array.isArray(value)) rowsJson(value, item, out);
        else if (multiple) out.ascii('[]');
        else if (isRow(value)) item(value, out);
        else out.ascii('null');
        return true;
      };
    }
    case 'component': {
      const item = byIdentity(node, componentJson(registry, attribute.component, node, false));
      if (attribute.repeatable) {
        return (value, out) => {
          if (Array.isArray(value)) rowsJson(value, item, out);
          else out.ascii('[]');
          return true;
        };
      }
      return (value, out) => {
        if (isRow(value)) item(value, out);
        else out.ascii('null');
        return true;
      };
    }
    case 'dynamiczone':
      return dynamicZoneJson(registry, node);
    default:
      return writeCopiedJson;
  }
}

/**
 * Items whose component is unknown or not selected (`on`) are left out; writers are compiled per component met,
 * and keep the bytes of each item object when its component populates nothing (row-json's byIdentity).
 */
function dynamicZoneJson(registry: Registry, node: PopulateNode): ValueWrite {
  const writers = new Map<string, RowWrite | null>();
  const writerOf = (uid: string): RowWrite | null => {
    let writer = writers.get(uid);
    if (writer === undefined) {
      const itemNode = node.on ? node.on[uid] : node;
      writer = !itemNode || !registry.components.has(uid) ? null : byIdentity(itemNode, dynamicZoneItemJson(registry, uid, itemNode));
      writers.set(uid, writer);
    }
    return writer;
  };
  return (value, out) => {
    if (!Array.isArray(value)) {
      out.ascii('[]');
      return true;
    }
    out.byte(0x5b);
    let first = true;
    for (const item of value) {
      if (!isRow(item)) continue;
      const writer = writerOf(String(item.__component));
      if (!writer) continue;
      if (!first) out.byte(0x2c);
      writer(item, out);
      first = false;
    }
    out.byte(0x5d);
    return true;
  };
}

function dynamicZoneItemJson(registry: Registry, uid: string, itemNode: PopulateNode): RowWrite {
  try {
    return componentJson(registry, uid, itemNode, true);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    return (item, out) => out.text(JSON.stringify({ ...formatComponent(registry, uid, item, itemNode), __component: uid }));
  }
}
