import { DocumentTooLargeError, ReadLimitError, type Row } from '../engine/types';
import { ValidationError } from '../errors';
import type { PopulateMap, PopulateNode, Query } from '../query/types';
import { createIdentityCache } from '../util/frozen';

/** The option that sets each read limit, named in the error's details. */
const OPTION = { joinedRows: 'rest.maxJoinedRows', time: 'mongoEngine({ maxTimeMS })' } as const;

/**
 * The 400 a read stopped by one of its limits answers (a ReadLimitError of the engine, or of {@link populateMeter}):
 * a ValidationError naming the populate path and the limit, with `details` `{ key, path, source, param, limit,
 * option, max }`. A result document over the engine's document size limit (DocumentTooLargeError: MongoDB's
 * 16 MB BSONObjectTooLarge, https://www.mongodb.com/docs/manual/reference/limits/, or the memory engine's
 * `maxDocumentBytes`) is a 400 too: the request is well-formed but asks for a row whose populated relations and
 * components make a document the database cannot return; asking for less fixes it (a 500 would be retried). Each
 * list row is its own document (pipeline/compile-find), so only one row's size matters. Any other error is
 * returned as is.
 *
 * @example
 * try { await engine.aggregate(...) } catch (e) { throw readLimitError(e) }
 */
export function readLimitError(error: unknown): unknown {
  if (error instanceof DocumentTooLargeError) return documentTooLarge(error.limit);
  if (!(error instanceof ReadLimitError)) return error;
  if (error.limit === 'size') {
    return new ValidationError('The query result is larger than the database allows: narrow the populate, the fields or the page', {
      key: null, path: null, source: 'query', param: null, limit: 'documentSize', option: null, max: error.max,
    });
  }
  if (error.limit === 'time') {
    return new ValidationError(`The query exceeded its time limit of ${error.max} ms`, {
      key: null, path: null, source: 'query', param: null, limit: 'maxTimeMS', option: OPTION.time, max: error.max,
    });
  }
  const path = error.path.join('.');
  const what = error.param === 'sort' ? `sorting by a field of ${path || 'a relation'}` : path || 'populate';
  return new ValidationError(`Invalid ${error.param} parameter: ${what} joins more than ${error.max} rows (the read's join budget)`, {
    key: error.path[0] ?? null, path, source: 'query', param: error.param, limit: 'maxJoinedRows', option: OPTION.joinedRows, max: error.max,
  });
}

function documentTooLarge(limit: number): ValidationError {
  const MiB = 1024 * 1024;
  const size = limit % MiB === 0 ? `${limit / MiB} MB` : `${limit} bytes`;
  return new ValidationError(
    `The response is too large: one entry with its populated relations and components is over the database's document size limit (${size}). Populate fewer relations or select fewer fields.`,
    { limit },
  );
}

/**
 * Counts, row after row of a read's result (AggregateOptions.onRow), the rows its populate put in: every related
 * row or media file at any depth, inside components and dynamic zones too (a `count` populate counts none). Throws
 * a ReadLimitError naming the populate path where the total goes over `query.maxJoinedRows`. On MongoDB it is
 * what enforces the total (each join is only bounded by its `$limit`); on the memory engine it re-checks what the
 * engine counted while joining. A result row without populated fields (a list's `__total`) counts nothing.
 *
 * @example
 * await engine.aggregate(collection, pipeline, { onRow: populateMeter(query) });
 */
export function populateMeter(query: Query): ((row: Row) => void) | undefined {
  const max = query.maxJoinedRows;
  if (max === undefined || Object.keys(query.populate).length === 0) return undefined;
  const walk = walks.get(query.populate, () => mapWalk(query.populate, []));
  if (!walk) return () => undefined; // only `count` populates, or components populating nothing: nothing to count
  let count = 0;
  const add = (path: readonly string[], rows: number): void => {
    count += rows;
    if (count > max) throw new ReadLimitError('joinedRows', max, path);
  };
  return (row) => walk(row, add);
}

type Add = (path: readonly string[], rows: number) => void;
/** Counts the populated rows under one value (a row of a populate map, or a populated attribute's value). */
type Walk = (value: unknown, add: Add) => void;

/**
 * The walk of each populate map, compiled once per frozen map (the parsed queries the routes share, lib/util/frozen):
 * its names, paths and nodes are read once, not on every row of every read.
 */
const walks = createIdentityCache<PopulateMap, Walk | null>();

/** The walk of the rows of `map` (null: it populates nothing), the path of each name under `path`. */
function mapWalk(map: PopulateMap, path: readonly string[]): Walk | null {
  const names: string[] = [];
  const nodes: Walk[] = [];
  for (const [name, node] of Object.entries(map)) {
    const walk = nodeWalk(node, Object.freeze([...path, name]));
    if (!walk) continue;
    names.push(name);
    nodes.push(walk);
  }
  if (names.length === 0) return null;
  return (value, add) => {
    if (!isRow(value)) return;
    for (let i = 0; i < names.length; i++) nodes[i]!(value[names[i]!], add);
  };
}

/** The walk of a populated attribute's value: what it joined (at `path`), then what those rows populate. */
function nodeWalk(node: PopulateNode, path: readonly string[]): Walk | null {
  const kind = node.attribute.kind;
  if (kind === 'component') {
    const item = mapWalk(node.populate, path);
    return item && ((value, add) => forEachItem(value, (row) => item(row, add)));
  }
  if (kind === 'dynamiczone') {
    const on = node.on;
    const byComponent = new Map<string, Walk | null>();
    const itemWalk = (uid: string): Walk | null => {
      let walk = byComponent.get(uid);
      if (walk === undefined) {
        const sub = on ? (Object.hasOwn(on, uid) ? on[uid] : undefined) : node;
        walk = sub ? mapWalk(sub.populate, path) : null;
        if (byComponent.size < MAX_COMPONENTS) byComponent.set(uid, walk);
      }
      return walk;
    };
    return (value, add) =>
      forEachItem(value, (row) => {
        const walk = itemWalk(typeof row.__component === 'string' ? row.__component : '');
        if (walk) walk(row, add);
      });
  }
  if (node.count) return null;
  const item = mapWalk(node.populate, path);
  return (value, add) => {
    const rows = Array.isArray(value) ? value.length : value === null || value === undefined ? 0 : 1;
    add(path, rows);
    if (item && rows > 0) forEachItem(value, (row) => item(row, add));
  };
}

/** The dynamic zone walks kept per node: the components met (a stored `__component` is any string). */
const MAX_COMPONENTS = 64;

/** Calls `each` with the value itself or each element of an array value that is a row. */
function forEachItem(value: unknown, each: (row: Row) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) if (isRow(item)) each(item);
  } else if (isRow(value)) {
    each(value);
  }
}

function isRow(value: unknown): value is Row {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
