import type { Row } from '../../types';

const ids = new WeakMap<readonly Row[], number>();
let next = 1;

/**
 * Marks a cached row array as stable (never mutated, valid until a write drops its cache entry) and returns its
 * identity number, so results derived from it can be cached too.
 *
 * @example
 * const rows = markStable(matching); stableId(rows) // a number
 */
export function markStable<T extends readonly Row[]>(rows: T): T {
  if (!ids.has(rows)) ids.set(rows, next++);
  return rows;
}

/** The identity number of a stable array, or undefined for any other array. */
export function stableId(rows: readonly Row[]): number | undefined {
  return ids.get(rows);
}
