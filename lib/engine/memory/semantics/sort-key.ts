import type { Row } from '../../types';
import { compareBson } from './bson-compare';

/**
 * MongoDB's sort key of a document for one `$sort` field, the value `$sort` compares
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/sort/, "Sort with Arrays";
 * https://www.mongodb.com/docs/manual/reference/method/cursor.sort/;
 * https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/, "Arrays" and "Non-existent Fields"):
 * - the values at the (dotted) path are gathered through arrays as a multikey index does: each element of an array
 *   met along the path is followed (an element without the rest of the path gives null), and an array at the end of
 *   the path gives each of its elements (an element that is itself an array stays one value);
 * - an ascending sort compares the smallest of them in BSON order, a descending sort the largest (compareBson);
 * - a missing field sorts as null; an empty array sorts below null and a missing field (it is `undefined` here,
 *   which compareBson ranks below null: https://jira.mongodb.org/browse/DOCS-2760).
 *
 * @example
 * sortKey({ c: [{ n: 'b' }, { n: 'z' }] }, ['c', 'n'], -1) // 'z'
 * sortKey({ c: [{ n: 'b' }, { n: 'z' }] }, ['c', 'n'], 1)  // 'b'
 * sortKey({ c: [] }, ['c', 'n'], 1)                        // undefined: below null
 * sortKey({}, ['c', 'n'], 1)                               // null
 */
export function sortKey(row: Row, path: readonly string[], dir: 1 | -1): unknown {
  if (path.length === 1) {
    const value = Object.hasOwn(row, path[0]!) ? row[path[0]!] : undefined;
    if (!Array.isArray(value)) return value === undefined ? null : value;
  }
  const values: unknown[] = [];
  gather(row, path, 0, values);
  let best = values[0];
  for (let i = 1; i < values.length; i++) if (compareBson(values[i], best) === -dir) best = values[i];
  return best;
}

/** Pushes the values at `path[at..]` of the object `value` onto `out` (at least one: null when there is none). */
function gather(value: Record<string, unknown>, path: readonly string[], at: number, out: unknown[]): void {
  const field = Object.hasOwn(value, path[at]!) ? value[path[at]!] : undefined;
  const last = at === path.length - 1;
  if (Array.isArray(field)) {
    if (field.length === 0) out.push(undefined);
    else if (last) for (const item of field) out.push(item === undefined ? null : item);
    else for (const item of field) follow(item, path, at + 1, out);
  } else if (last) {
    out.push(field === undefined ? null : field);
  } else {
    follow(field, path, at + 1, out);
  }
}

/** The values at `path[at..]` of a value met along the path: an embedded document is followed, anything else is null. */
function follow(value: unknown, path: readonly string[], at: number, out: unknown[]): void {
  if (isDocument(value)) gather(value, path, at, out);
  else out.push(null);
}

function isDocument(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return !(value instanceof Date || value instanceof RegExp || value instanceof Uint8Array);
}
