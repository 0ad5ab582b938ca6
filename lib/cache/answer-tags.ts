import type { FilterNode, PopulateMap, Query, SortItem } from '../query/types';
import type { Attribute, Attributes, Registry } from '../schema';

/** The types a read depends on beyond the documents its answer shows. */
export interface QueryTypes {
  /**
   * Types whose documents decide which documents the answer shows or their order without being shown: relation
   * filters, sorts through relations, filtered populates, populate counts. Any write of them may change the answer.
   */
  readonly selecting: Set<string>;
  /** Types the answer may show documents of (the root and every populated relation or media). */
  readonly shown: Set<string>;
}

const MAX_DEPTH = 32;

function filterTypes(node: FilterNode | undefined, into: Set<string>, depth = 0): void {
  if (!node || depth > MAX_DEPTH) return;
  switch (node.type) {
    case 'and':
    case 'or':
      for (const child of node.children) filterTypes(child, into, depth + 1);
      return;
    case 'not':
      filterTypes(node.child, into, depth + 1);
      return;
    case 'relation':
      into.add(node.target);
      filterTypes(node.where, into, depth + 1);
      return;
    case 'component':
      filterTypes(node.where, into, depth + 1);
      return;
    default:
  }
}

/** The relation targets a sort path goes through (`['author', 'name']` on articles: the author type). */
function sortTypes(registry: Registry, attributes: Attributes, sort: readonly SortItem[], into: Set<string>): void {
  for (const item of sort) {
    let current: Attributes | undefined = attributes;
    for (const name of item.path) {
      const a: Attribute | undefined = current?.[name];
      if (!a) break;
      if (a.kind === 'relation' || a.kind === 'media') {
        into.add(a.target);
        current = registry.contentTypes.get(a.target)?.attributes;
      } else if (a.kind === 'component') current = registry.components.get(a.component)?.attributes;
      else current = undefined;
    }
  }
}

function populateTypes(registry: Registry, uid: string, populate: PopulateMap, types: QueryTypes, depth: number): void {
  if (depth > MAX_DEPTH) return;
  for (const node of Object.values(populate)) {
    const a = node.attribute;
    const target = a.kind === 'relation' || a.kind === 'media' || a.kind === 'localizations' ? a.target : undefined;
    if (target !== undefined) types.shown.add(target);
    if (node.filters || node.count) {
      types.selecting.add(target ?? uid);
      filterTypes(node.filters, types.selecting);
    }
    const attributes =
      target !== undefined ? registry.contentTypes.get(target)?.attributes : a.kind === 'component' ? registry.components.get(a.component)?.attributes : undefined;
    if (attributes) sortTypes(registry, attributes, node.sort, types.selecting);
    // Inside a component the documents are the owner's: its nested populates hang off the same uid.
    const next = target ?? uid;
    populateTypes(registry, next, node.populate, types, depth + 1);
    for (const sub of Object.values(node.on ?? {})) populateTypes(registry, next, { [sub.attribute.name]: sub }, types, depth + 1);
  }
}

/**
 * The types a read of `uid` with `query` depends on (see {@link QueryTypes}). `uid` itself is shown, never
 * counted as selecting: the caller tags lists with their type anyway.
 *
 * @example
 * queryTypes(registry, 'api::article.article', parseQuery(... 'filters[author][name][$eq]=Ann&populate=categories'))
 * // { selecting: {'api::author.author'}, shown: {'api::article.article', 'api::category.category'} }
 */
export function queryTypes(registry: Registry, uid: string, query: Query | undefined): QueryTypes {
  const types: QueryTypes = { selecting: new Set(), shown: new Set([uid]) };
  if (!query) return types;
  const attributes = registry.contentTypes.get(uid)?.attributes;
  filterTypes(query.filters, types.selecting);
  if (attributes) sortTypes(registry, attributes, query.sort, types.selecting);
  populateTypes(registry, uid, query.populate, types, 0);
  types.selecting.delete(uid);
  return types;
}

/** `"documentId":"` in serialised JSON: a key (a quote inside a string is escaped, so never matches there). */
const KEY = '"documentId":"';

/**
 * The documentIds an answer's JSON shows, at any depth (the data, populated relations and media, in the v5 and
 * the v4 format): every `"documentId"` key with a string value, found with `indexOf` (no parse). Bytes are read as
 * latin1 (one character a byte, the cheapest decoding), a value with other than ASCII decoded again as UTF-8. A
 * JSON field of a document holding such a key adds a tag, which only purges the answer more often.
 *
 * @example
 * answerDocumentIds('{"data":[{"id":1,"documentId":"a","author":{"documentId":"b"}}]}'); // Set {'a', 'b'}
 */
export function answerDocumentIds(body: string | Uint8Array): Set<string> {
  const latin1 = typeof body !== 'string';
  const text = latin1 ? Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1') : body;
  const ids = new Set<string>();
  for (let at = text.indexOf(KEY); at !== -1; at = text.indexOf(KEY, at + 1)) {
    const start = at + KEY.length;
    let end = start;
    let escaped = false;
    for (let c = text.charCodeAt(end); end < text.length && c !== 0x22; c = text.charCodeAt(end)) {
      if (c === 0x5c) {
        escaped = true;
        end++;
      }
      end++;
    }
    if (end >= text.length) break; // no closing quote: not JSON
    let raw = text.slice(start, end);
    if (latin1 && /[^\x00-\x7f]/.test(raw)) raw = Buffer.from(raw, 'latin1').toString('utf8');
    ids.add(escaped ? (JSON.parse(`"${raw}"`) as string) : raw);
    at = end;
  }
  return ids;
}
