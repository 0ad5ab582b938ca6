import type { Row } from '../../types';
import type { UpdatedRows } from './apply-changes';
import { compareBson } from '../semantics/bson-compare';
import { sortPaths } from '../semantics/manual-stages';
import { carryPrefix, inPlace, insertionPoint } from './sorted-changes';
import { mingoStages, type QueryOptions } from '../semantics/mingo-runtime';
import { sortKey } from '../semantics/sort-key';
import { stableId } from './stable-arrays';
import { BoundedMemo } from '../../../util/bounded-memo';
import { engineMemos, OBJECT_BYTES, SLOT_BYTES } from './memo-budget';

type Compare<T> = (a: T, b: T) => number;

/** A row with its sort keys (one per `$sort` field), sorted in its place. */
interface Keyed {
  readonly row: Row;
  readonly keys: readonly unknown[];
}

/** How to order a row array as MongoDB's `$sort` does (sortPlan), and whether it already is in that order. */
export interface SortPlan {
  readonly sorted: boolean;
  /** The first `limit` rows of the stable sort (1 <= limit <= rows). */
  readonly first: (limit: number) => Row[];
  /** The longest sorted prefix computed so far (the planned array never changes). */
  prefix?: Row[];
  /** The same plan for the array `next.rows` derived from the planned one, or null to plan it afresh. */
  readonly carry?: (next: UpdatedRows, seqOf: (row: Row) => number) => SortPlan | null;
}

/**
 * Plans per stable row array (never mutated: stable-arrays) and `$sort` document, within the engine's memo budget:
 * a plan is counted for a sorted prefix as long as the array (what it may grow to).
 */
const plans = new BoundedMemo<readonly Row[], Map<string, SortPlan | null>>(engineMemos, (byKey, rows) => OBJECT_BYTES + byKey.size * planBytes(rows));

/** The bytes one plan of `rows` is counted for: its sorted prefix may grow as long as `rows`. */
const planBytes = (rows: readonly Row[]): number => 2 * OBJECT_BYTES + SLOT_BYTES * rows.length;

/**
 * The {@link sortPlan} of `spec` for `rows`, remembered per stable array (stable-arrays): a cached match result
 * (natural order = `id` order) is checked once, not on every request.
 */
export function planSort(rows: readonly Row[], spec: Record<string, unknown>): SortPlan | null {
  // Only arrays that never change are planned once: the collection's own row array (a pipeline without a first
  // `$match`) changes in place with every write, and a plan kept for it went stale.
  if (stableId(rows) === undefined) return sortPlan(rows, spec);
  const byArray = plans.get(rows) ?? plans.set(rows, new Map());
  const key = JSON.stringify(spec);
  if (!byArray.has(key)) {
    // Requests choose the sorts: a few per array (a new one drops them all), each counted in the budget.
    if (byArray.size >= MAX_PLANS) byArray.clear();
    byArray.set(key, sortPlan(rows, spec));
    plans.grew(planBytes(rows));
  }
  return byArray.get(key) ?? null;
}

/**
 * Gives `next.rows` (a cached match result brought up to date from `rows`: match-rows) the plans of `rows`
 * without planning them afresh: a direct plan (sortPlan) checks only the rows added (their kind, and their order
 * with their neighbours when `rows` was in order), and keeps the sorted prefix with the rows removed taken out and
 * the rows added that sort before its last row put in (still the first rows of the stable sort, ties by
 * `seqOf`, which is natural order). Other plans are planned again when asked.
 */
export function carryPlans(rows: readonly Row[], next: UpdatedRows, seqOf: (row: Row) => number): void {
  const byArray = plans.get(rows);
  if (!byArray) return;
  const carried = new Map<string, SortPlan | null>();
  for (const [key, plan] of byArray) {
    const derived = plan ? (plan.carry?.(next, seqOf) ?? null) : null;
    // A null plan is a spec sortPlan never takes, whatever the rows.
    if (derived || !plan) carried.set(key, derived);
  }
  plans.set(next.rows, carried);
}

/** The most sort plans kept per row array. */
const MAX_PLANS = 16;

/**
 * How to sort `rows` by a `$sort` document in MongoDB's order, or `null` for a document the compiler never emits
 * (a direction other than 1 or -1, `$meta`, an empty or `$`-prefixed key: run in mingo).
 *
 * Each row is ordered by its sort key per field (sort-key: the smallest value ascending, the largest descending,
 * gathered through arrays along a dotted path; missing is null; an empty array below null), compared in BSON order
 * (compareBson), key by key; ties keep their input order (a stable sort; the compiler ends every sort on `id`).
 * The keys are computed once per row and sorted with it. When every field is top-level and holds, in every row, an
 * own string without code units from U+D800 up (UTF-16 order is then code point order) or an own number other than
 * NaN, the sort key is the value itself and `<` is compareBson's order: the rows are compared directly.
 *
 * @example
 * sortPlan(rows, { 'seo.socials.network': -1, id: 1 })!.first(10) // by each row's largest network, then id
 */
export function sortPlan(rows: readonly Row[], spec: Record<string, unknown>): SortPlan | null {
  const paths = sortPaths(spec);
  if (!paths) return null;
  const keys = Object.keys(spec);
  const dirs = paths.map(([, dir]) => dir);
  if (keys.every((key) => !key.includes('.') && uniformValues(rows, key))) {
    const compare = direct(keys, dirs);
    return directPlan(rows, compare, keys, inOrder(rows, compare));
  }
  return keyedPlan(rows, paths.map(([path]) => path), dirs);
}

/** A plan comparing the rows' values directly (uniformValues holds for every key), carried over as carryPlans says. */
function directPlan(rows: readonly Row[], compare: Compare<Row>, keys: readonly string[], sorted: boolean): SortPlan {
  const plan: SortPlan = {
    sorted,
    first: (limit) => sortedPrefix(rows, compare, limit),
    carry: (next, seqOf) => {
      const sample = rows[0] ?? next.rows[0];
      if (sample && !keys.every((key) => uniformValues(next.added, key, typeof sample[key]))) return null;
      const stillSorted = plan.sorted && next.added.every((row) => inPlace(next.rows, row, compare, seqOf));
      const carried = directPlan(next.rows, compare, keys, stillSorted);
      if (!stillSorted && plan.prefix) carried.prefix = carryPrefix(plan.prefix, next, (a, b) => compare(a, b) || seqOf(a) - seqOf(b));
      return carried;
    },
  };
  return plan;
}

/** Compares top-level strings or numbers (see sortPlan) as they are. */
function direct(keys: readonly string[], dirs: readonly number[]): Compare<Row> {
  return (a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const x = a[keys[i]!] as string | number;
      const y = b[keys[i]!] as string | number;
      if (x !== y) return (x < y ? -1 : 1) * dirs[i]!;
    }
    return 0;
  };
}

/**
 * Sorts each row with its sort keys. The keyed rows are not kept by the plan (plans live as long as a cached row
 * array): built for the order check, used by the first sort, built again for a longer prefix.
 */
function keyedPlan(rows: readonly Row[], paths: readonly string[][], dirs: readonly (1 | -1)[]): SortPlan {
  let plainStrings = true;
  const build = (): Keyed[] => {
    plainStrings = true;
    return rows.map((row) => ({
      row,
      keys: paths.map((path, i) => {
        const key = sortKey(row, path, dirs[i]!);
        if (typeof key === 'string' && plainStrings && HIGH_UNITS.test(key)) plainStrings = false;
        return key;
      }),
    }));
  };
  const compare = (a: Keyed, b: Keyed): number => {
    for (let i = 0; i < dirs.length; i++) {
      const c = compareKeys(a.keys[i], b.keys[i], plainStrings);
      if (c !== 0) return c * dirs[i]!;
    }
    return 0;
  };
  let keyed: Keyed[] | null = build();
  const sorted = inOrder(keyed, compare);
  if (sorted) keyed = null;
  return {
    sorted,
    first: (limit) => {
      const items = keyed ?? build();
      keyed = null;
      return sortedPrefix(items, compare, limit).map((k) => k.row);
    },
  };
}

/**
 * compareBson, with two numbers, or two strings when none has HIGH_UNITS (`plainStrings`), compared by `<`: the
 * same order (NaN, which `<` does not order, goes to compareBson).
 */
function compareKeys(x: unknown, y: unknown, plainStrings: boolean): number {
  if (x === y) return 0;
  const type = typeof x;
  if (type === typeof y && (type === 'number' || (type === 'string' && plainStrings))) {
    if ((x as number) < (y as number)) return -1;
    if ((x as number) > (y as number)) return 1;
  }
  return compareBson(x, y);
}

/** Code units from U+D800 up: where UTF-16 order and code point order can differ (bson-compare). */
const HIGH_UNITS = /[\uD800-\uFFFF]/;

/**
 * Whether every row holds an own string at `key` (none with HIGH_UNITS), or every row an own number but NaN; of
 * the type `kind` when given (the type of the rows already planned).
 */
export function uniformValues(rows: readonly Row[], key: string, kind = rows.length === 0 ? 'string' : typeof rows[0]![key]): boolean {
  if (kind !== 'string' && kind !== 'number') return false;
  for (const row of rows) {
    const value = row[key];
    if (typeof value !== kind || !Object.hasOwn(row, key)) return false;
    if (kind === 'number' ? Number.isNaN(value) : HIGH_UNITS.test(value as string)) return false;
  }
  return true;
}

/**
 * `rows` in `$sort: spec` order (sortPlan; a document it does not take runs in mingo).
 *
 * @example
 * orderRows(rows, { 'seo.socials.network': 1, id: 1 }, options)
 */
export function orderRows(rows: readonly Row[], spec: Record<string, unknown>, options: QueryOptions): Row[] {
  const plan = planSort(rows, spec);
  return plan ? firstSorted(rows, plan) : mingoStages(options, [{ $sort: spec }], rows, {});
}

/**
 * The first `k` rows of the stable sort of `rows` by `plan` (all of them when `k` is undefined), without sorting
 * the whole input when `k` is small: rows already in order are sliced, a small `k` keeps a bounded sorted buffer,
 * a large one uses the native (stable) sort.
 *
 * @example
 * firstSorted(rows, planSort(rows, { title: -1, id: 1 })!, 75) // rows 0..74 of the sorted order
 */
export function firstSorted(rows: readonly Row[], plan: SortPlan, k = rows.length): Row[] {
  const limit = Math.max(0, Math.min(k, rows.length));
  if (limit === 0) return [];
  if (plan.sorted) return rows.slice(0, limit);
  if (plan.prefix && plan.prefix.length >= limit) return plan.prefix.slice(0, limit);
  // A few rows more than asked, so that writes taking rows out of a carried prefix (carryPlans) leave enough.
  const first = plan.first(Math.min(rows.length, limit + PREFIX_SPARE));
  plan.prefix = first;
  return first.slice(0, limit);
}

/** How many rows more than asked a sorted prefix holds. */
const PREFIX_SPARE = 16;

function sortedPrefix<T>(items: readonly T[], compare: Compare<T>, limit: number): T[] {
  if (limit * 8 >= items.length) return items.slice().sort(compare).slice(0, limit);
  const best: T[] = [];
  for (const item of items) {
    if (best.length === limit && compare(item, best[limit - 1]!) >= 0) continue;
    best.splice(insertionPoint(best, item, compare), 0, item);
    if (best.length > limit) best.pop();
  }
  return best;
}

function inOrder<T>(items: readonly T[], compare: Compare<T>): boolean {
  for (let i = 1; i < items.length; i++) if (compare(items[i - 1]!, items[i]!) > 0) return false;
  return true;
}

/** Row arrays a fast path just ordered by a `$sort` document (that very object): numbering needs no new sort. */
const sortedArrays = new WeakMap<readonly Row[], object>();

/**
 * Records that `rows` are in `$sort: spec` order (fast-paths/sorted-page, a page): a following `$setWindowFields`
 * whose `sortBy` is that same object numbers them as they are (fast-paths/document-number).
 *
 * @example
 * markSortedBy(page, sortSpec)
 */
export function markSortedBy(rows: readonly Row[], spec: object): void {
  sortedArrays.set(rows, spec);
}

/** The `$sort` document `rows` were marked as ordered by ({@link markSortedBy}), if any. */
export function sortedBy(rows: readonly Row[]): object | undefined {
  return sortedArrays.get(rows);
}
