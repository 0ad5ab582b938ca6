import type { Row } from '../types';
import { compareBson } from './bson-compare';
import { mingoStages, type QueryOptions } from './mingo-runtime';
import { sortKey } from './sort-key';

type Compare = (a: Row, b: Row) => number;

/** How to order a row array as MongoDB's `$sort` does (sortComparator), and whether it already is in that order. */
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

/**
 * The comparator of a `$sort` document in MongoDB's order, or `null` for a document the compiler never emits (a
 * direction other than 1 or -1, `$meta`, an empty or `$`-prefixed key: run in mingo).
 *
 * Each row is ordered by its sort key per field (sort-key: the smallest value ascending, the largest descending,
 * gathered through arrays along a dotted path; missing is null; an empty array below null), compared in BSON order
 * (compareBson), key by key; ties keep their input order (a stable sort; the compiler ends every sort on `id`).
 * The keys are computed once per row. When every field is top-level and holds, in every row, an own string
 * without code units from U+D800 up (UTF-16 order is then code point order) or an own number other than NaN, the
 * sort key is the value itself and `<` is compareBson's order: those are compared directly (the same order).
 *
 * @example
 * sortComparator(rows, { 'seo.socials.network': -1, id: 1 }) // by each row's largest network, then id
 */
export function sortComparator(rows: readonly Row[], spec: Record<string, unknown>): Compare | null {
  const keys = Object.keys(spec);
  if (keys.length === 0) return null;
  const dirs: (1 | -1)[] = [];
  for (const key of keys) {
    const dir = spec[key];
    if ((dir !== 1 && dir !== -1) || key.startsWith('$') || key.split('.').includes('')) return null;
    dirs.push(dir);
  }
  if (keys.every((key) => !key.includes('.') && uniformValues(rows, key))) return direct(keys, dirs);
  return byKeys(rows, keys.map((key) => key.split('.')), dirs);
}

/** Compares top-level strings or numbers (see sortComparator) as they are. */
function direct(keys: readonly string[], dirs: readonly number[]): Compare {
  return (a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const x = a[keys[i]!] as string | number;
      const y = b[keys[i]!] as string | number;
      if (x !== y) return (x < y ? -1 : 1) * dirs[i]!;
    }
    return 0;
  };
}

/** Compares the sort keys of each row, computed once per row of `rows` (on the fly for any other row). */
function byKeys(rows: readonly Row[], paths: readonly string[][], dirs: readonly (1 | -1)[]): Compare {
  const keysOf = (row: Row): unknown[] => paths.map((path, i) => sortKey(row, path, dirs[i]!));
  const computed = new Map<Row, unknown[]>();
  for (const row of rows) if (!computed.has(row)) computed.set(row, keysOf(row));
  return (a, b) => {
    const x = computed.get(a) ?? keysOf(a);
    const y = computed.get(b) ?? keysOf(b);
    for (let i = 0; i < dirs.length; i++) {
      const c = compareBson(x[i], y[i]);
      if (c !== 0) return c * dirs[i]!;
    }
    return 0;
  };
}

/** Code units from U+D800 up: where UTF-16 order and code point order can differ (bson-compare). */
const HIGH_UNITS = /[\uD800-\uFFFF]/;

/** Whether every row holds an own string at `key` (none with HIGH_UNITS), or every row an own number but NaN. */
function uniformValues(rows: readonly Row[], key: string): boolean {
  if (rows.length === 0) return true;
  const kind = typeof rows[0]![key];
  if (kind !== 'string' && kind !== 'number') return false;
  for (const row of rows) {
    const value = row[key];
    if (typeof value !== kind || !Object.hasOwn(row, key)) return false;
    if (kind === 'number' ? Number.isNaN(value) : HIGH_UNITS.test(value as string)) return false;
  }
  return true;
}

/**
 * `rows` in `$sort: spec` order (sortComparator; a document it does not take runs in mingo).
 *
 * @example
 * orderRows(rows, { 'seo.socials.network': 1, id: 1 }, options)
 */
export function orderRows(rows: readonly Row[], spec: Record<string, unknown>, options: QueryOptions): Row[] {
  const plan = planSort(rows, spec);
  return plan ? firstSorted(rows, plan) : mingoStages(options, [{ $sort: spec }], rows, {});
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
