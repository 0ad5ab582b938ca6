import type { Row } from '../../types';
import type { Change } from '../storage/change-log';

/** A filter result brought up to date: the new array, the rows it gained and the rows it lost. */
export interface UpdatedRows {
  readonly rows: Row[];
  /** Rows not in the old result, in natural order. */
  readonly added: readonly Row[];
  /** Rows of the old result no longer in it. */
  readonly removed: readonly Row[];
}

/**
 * The rows of a collection matching `test`, in natural order, now: `rows` (the matching rows at some earlier
 * version, in natural order) with the `changes` made since applied. A changed row's final state is its last
 * change; a row is in the result when it is stored now and passes `test` (stored rows are never mutated, so a row
 * passes or fails for ever): exactly what testing every stored row gives. Costs one test per changed row, a
 * binary search per changed row that matches, and one copy of `rows`.
 *
 * @example
 * applyChanges(published, collection.changesSince(version)!, test, (r) => collection.sequence(r))
 */
export function applyChanges(rows: readonly Row[], changes: readonly Change[], test: (row: Row) => boolean, seqOf: (row: Row) => number): UpdatedRows {
  const last = new Map<Row, boolean>();
  for (const { row, added } of changes) last.set(row, added);
  const gone: number[] = [];
  const inserted: { at: number; row: Row }[] = [];
  for (const [row, isAdded] of last) {
    if (!test(row)) continue;
    const at = lowerBound(rows, seqOf(row), seqOf);
    const present = rows[at] === row;
    if (present && !isAdded) gone.push(at);
    if (!present && isAdded) inserted.push({ at, row });
  }
  gone.sort((a, b) => a - b);
  inserted.sort((a, b) => a.at - b.at || seqOf(a.row) - seqOf(b.row));
  const pieces: Row[][] = [];
  let from = 0;
  let g = 0;
  // Copies rows[from, end) but the gone ones, a slice (a block copy) at a time.
  const copyUntil = (end: number): void => {
    for (; g < gone.length && gone[g]! < end; g++) {
      pieces.push(rows.slice(from, gone[g]));
      from = gone[g]! + 1;
    }
    pieces.push(rows.slice(from, end));
    from = Math.max(from, end);
  };
  for (const { at, row } of inserted) {
    copyUntil(at);
    pieces.push([row]);
  }
  copyUntil(rows.length);
  const out = pieces.length === 1 ? pieces[0]! : ([] as Row[]).concat(...pieces);
  return { rows: out, added: inserted.map((i) => i.row), removed: gone.map((at) => rows[at]!) };
}

/** First position in `rows` (ascending sequence) whose sequence is >= `seq`. */
function lowerBound(rows: readonly Row[], seq: number, seqOf: (row: Row) => number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (seqOf(rows[mid]!) < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
