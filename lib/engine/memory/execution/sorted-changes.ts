import type { Row } from '../../types';
import type { UpdatedRows } from './apply-changes';

type Compare<T> = (a: T, b: T) => number;

/** Whether `row` (in `rows`, ascending sequence) is in order with its neighbours. */
export function inPlace(rows: readonly Row[], row: Row, compare: Compare<Row>, seqOf: (row: Row) => number): boolean {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (seqOf(rows[mid]!) < seqOf(row)) lo = mid + 1;
    else hi = mid;
  }
  const before = rows[lo - 1];
  const after = rows[lo + 1];
  return (before === undefined || compare(before, row) <= 0) && (after === undefined || compare(row, after) <= 0);
}

/**
 * The first rows of the stable sort after a change, from those before it (`prefix`): the rows removed taken out
 * (what is left is still the start of the order), each row added that sorts before the last one put in its place.
 */
export function carryPrefix(prefix: readonly Row[], next: UpdatedRows, compare: Compare<Row>): Row[] {
  const removed = new Set(next.removed);
  const out = prefix.filter((row) => !removed.has(row));
  for (const row of next.added) {
    if (out.length > 0 && compare(row, out[out.length - 1]!) < 0) out.splice(insertionPoint(out, row, compare), 0, row);
  }
  return out;
}

/** After every item of `sorted` that compares <= `item` (a later input item goes after its ties: stability). */
export function insertionPoint<T>(sorted: readonly T[], item: T, compare: Compare<T>): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(sorted[mid]!, item) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
