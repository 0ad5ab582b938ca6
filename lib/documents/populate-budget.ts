import { DocumentTooLargeError, ReadLimitError, type Row } from '../engine/types';
import { ValidationError } from '../errors';
import type { PopulateMap, PopulateNode, Query } from '../query/types';

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
  let count = 0;
  const add = (path: readonly string[], rows: number): void => {
    count += rows;
    if (count > max) throw new ReadLimitError('joinedRows', max, path);
  };
  return (row) => walkMap(row, query.populate, [], add);
}

type Add = (path: readonly string[], rows: number) => void;

function walkMap(value: unknown, map: PopulateMap, path: readonly string[], add: Add): void {
  if (!isRow(value)) return;
  for (const [name, node] of Object.entries(map)) walkNode(value[name], node, [...path, name], add);
}

function walkNode(value: unknown, node: PopulateNode, path: readonly string[], add: Add): void {
  const items = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
  const kind = node.attribute.kind;
  if (kind === 'component') {
    for (const item of items) walkMap(item, node.populate, path, add);
    return;
  }
  if (kind === 'dynamiczone') {
    for (const item of items) {
      const uid = isRow(item) && typeof item.__component === 'string' ? item.__component : '';
      const sub = node.on ? node.on[uid] : node;
      if (sub) walkMap(item, sub.populate, path, add);
    }
    return;
  }
  if (node.count) return;
  add(path, items.length);
  for (const item of items) walkMap(item, node.populate, path, add);
}

function isRow(value: unknown): value is Row {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
