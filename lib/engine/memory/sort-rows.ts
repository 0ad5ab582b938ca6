import type { Row } from '../types';

type Compare = (a: Row, b: Row) => number;

/** How to order a row array exactly as mingo's `$sort` does, and whether it already is in that order. */
export interface SortPlan {
  readonly compare: Compare;
  readonly sorted: boolean;
  /** The longest sorted prefix computed so far (the planned array never changes). */
  prefix?: Row[];
}

/** Plans per row array (arrays handed to the runner are never mutated) and `$sort` document. */
const plans = new WeakMap<readonly Row[], Map<string, SortPlan | null>>();

/**
 * The {@link sortComparator} of `spec` for `rows` and whether `rows` is already in order, remembered per array:
 * a cached match result (natural order = `id` order) is checked once, not on every request.
 */
export function planSort(rows: readonly Row[], spec: Record<string, unknown>): SortPlan | null {
  let byArray = plans.get(rows);
  if (!byArray) {
    byArray = new Map();
    plans.set(rows, byArray);
  }
  const key = JSON.stringify(spec);
  if (!byArray.has(key)) {
    const compare = sortComparator(rows, spec);
    byArray.set(key, compare ? { compare, sorted: inOrder(rows, compare) } : null);
  }
  return byArray.get(key) ?? null;
}

/** Keys mingo's `getValue` treats specially (Object.prototype members); never fast-pathed. */
const PROTO_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * The comparator of a `$sort` document, or `null` when mingo's order cannot be reproduced with certainty.
 *
 * mingo sorts stably, key by key from the last one, grouping rows by value and ordering the group keys with the
 * native sort when every value of a key is a string (UTF-16 order) or every one a number. That is a
 * lexicographic order on the keys with ties kept in input order, which this comparator gives with a stable sort.
 * It is only built when, for every key, each row has an own top-level value and all of them are strings, or all
 * finite numbers other than -0 (missing values, nulls, arrays, mixed types, dotted paths: `null`, use mingo).
 */
export function sortComparator(rows: readonly Row[], spec: Record<string, unknown>): Compare | null {
  const keys = Object.keys(spec);
  if (keys.length === 0) return null;
  const dirs: number[] = [];
  for (const key of keys) {
    const dir = spec[key];
    if ((dir !== 1 && dir !== -1) || key.includes('.') || key.startsWith('$') || PROTO_KEYS.has(key)) return null;
    if (!uniformValues(rows, key)) return null;
    dirs.push(dir);
  }
  return (a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const x = a[keys[i]!] as string | number;
      const y = b[keys[i]!] as string | number;
      if (x !== y) return (x < y ? -1 : 1) * dirs[i]!;
    }
    return 0;
  };
}

/** Whether every row holds an own string at `key`, or every row an own plain finite number. */
function uniformValues(rows: readonly Row[], key: string): boolean {
  if (rows.length === 0) return true;
  const kind = typeof rows[0]![key];
  if (kind !== 'string' && kind !== 'number') return false;
  for (const row of rows) {
    const value = row[key];
    if (typeof value !== kind || !Object.hasOwn(row, key)) return false;
    if (kind === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) return false;
  }
  return true;
}

/**
 * The first `k` rows of the stable sort of `rows` by `compare` (all of them when `k` is undefined), without
 * sorting the whole input when `k` is small: rows already in order are sliced, a small `k` keeps a bounded
 * sorted buffer, a large one uses the native (stable) sort.
 *
 * @example
 * firstSorted(rows, planSort(rows, { title: -1, id: 1 })!, 75) // rows 0..74 of the sorted order
 */
export function firstSorted(rows: readonly Row[], plan: SortPlan, k = rows.length): Row[] {
  const { compare } = plan;
  const limit = Math.max(0, Math.min(k, rows.length));
  if (limit === 0) return [];
  if (plan.sorted) return rows.slice(0, limit);
  if (plan.prefix && plan.prefix.length >= limit) return plan.prefix.slice(0, limit);
  const first = sortedPrefix(rows, compare, limit);
  plan.prefix = first;
  return first.slice();
}

function sortedPrefix(rows: readonly Row[], compare: Compare, limit: number): Row[] {
  if (limit * 8 >= rows.length) return rows.slice().sort(compare).slice(0, limit);
  const best: Row[] = [];
  for (const row of rows) {
    if (best.length === limit && compare(row, best[limit - 1]!) >= 0) continue;
    best.splice(insertionPoint(best, row, compare), 0, row);
    if (best.length > limit) best.pop();
  }
  return best;
}

function inOrder(rows: readonly Row[], compare: Compare): boolean {
  for (let i = 1; i < rows.length; i++) if (compare(rows[i - 1]!, rows[i]!) > 0) return false;
  return true;
}

/** After every row of `sorted` that compares <= `row` (a later input row goes after its ties: stability). */
function insertionPoint(sorted: readonly Row[], row: Row, compare: Compare): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(sorted[mid]!, row) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
