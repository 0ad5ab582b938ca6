import { ReadLimitError, type Row } from '../engine/types';
import { ValidationError } from '../errors';
import type { PopulateMap, PopulateNode, Query } from '../query/types';

/** The option that sets each read limit, named in the error's details. */
const OPTION = { joinedRows: 'rest.maxJoinedRows', time: 'mongoEngine({ maxTimeMS })' } as const;

/**
 * The 400 a read stopped by one of its limits answers (a ReadLimitError of the engine, or of {@link populateMeter}):
 * a ValidationError naming the populate path and the limit, with `details` `{ key, path, source, param, limit,
 * option, max }`. Any other error is returned as is.
 *
 * @example
 * try { await engine.aggregate(...) } catch (e) { throw readLimitError(e) }
 */
export function readLimitError(error: unknown): unknown {
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

/**
 * Counts, row after row of a read's result (AggregateOptions.onRow), the rows its populate put in: every related
 * row or media file at any depth, inside components and dynamic zones too (a `count` populate counts none). Throws
 * a ReadLimitError naming the populate path where the total goes over `query.maxJoinedRows`. On MongoDB it is
 * what enforces the total (each join is only bounded by its `$limit`); on the memory engine it re-checks what the
 * engine counted while joining. `pageOf`: the rows of one result row (the page facet's `data`), default itself.
 *
 * @example
 * await engine.aggregate(collection, pipeline, { onRow: populateMeter(query) });
 */
export function populateMeter(query: Query, pageOf: (row: Row) => readonly Row[] = (row) => [row]): ((row: Row) => void) | undefined {
  const max = query.maxJoinedRows;
  if (max === undefined || Object.keys(query.populate).length === 0) return undefined;
  let count = 0;
  const add = (path: readonly string[], rows: number): void => {
    count += rows;
    if (count > max) throw new ReadLimitError('joinedRows', max, path);
  };
  return (row) => {
    for (const item of pageOf(row)) walkMap(item, query.populate, [], add);
  };
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
