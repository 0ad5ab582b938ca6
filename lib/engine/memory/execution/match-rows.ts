import { Query } from 'mingo';
import type { Filter, Row } from '../../types';
import { applyChanges } from './apply-changes';
import { isPlainField } from './eligibility';
import { fieldCondition } from './field-conditions';
import { isIndexable, type IndexableValue } from '../storage/field-index';
import type { MemoryCollection } from '../storage/memory-collection';
import type { QueryOptions } from '../semantics/mingo-runtime';
import { selectCandidates } from '../storage/select-candidates';
import { carryPlans } from './sort-rows';
import { markStable } from './stable-arrays';


/** A row predicate that gives exactly mingo's answer. */
export type RowTest = (row: Row) => boolean;

/**
 * Compiles a query filter into a predicate: plain equalities on top-level fields with a string, boolean or
 * finite number (`{ _status: 'published', locale: 'en' }`) are tested directly (`===`, or membership when the
 * stored value is an array, as MongoDB does), `$in` / `$nin` / `$regex` conditions of top-level fields by
 * field-conditions, `$and` / `$or` / `$nor` branch by branch; every other key goes to a mingo `Query` of those keys
 * only. A filter is the conjunction of its keys, so the split gives mingo's answer.
 *
 * @example
 * compileRowTest({ _status: 'published', views: { $gt: 3 } }, options)({ _status: 'published', views: 4 }) // true
 */
export function compileRowTest(filter: Filter, options: QueryOptions): RowTest {
  const equalities: [string, IndexableValue][] = [];
  const tests: RowTest[] = [];
  const rest: Filter = {};
  for (const [key, value] of Object.entries(filter)) {
    if (isPlainField(key) && isIndexable(value)) {
      equalities.push([key, value]);
      continue;
    }
    const test = isPlainField(key) ? fieldCondition(key, value, options) : logicalTest(key, value, options);
    if (test) tests.push(test);
    else rest[key] = value;
  }
  const query = Object.keys(rest).length > 0 ? new Query(rest, options) : null;
  const keys = equalities.map(([key]) => key);
  const values = equalities.map(([, value]) => value);
  return (row) => {
    for (let i = 0; i < keys.length; i++) {
      const stored = row[keys[i]!];
      if (stored !== values[i] && !(Array.isArray(stored) && Object.hasOwn(row, keys[i]!) && stored.includes(values[i]))) return false;
    }
    for (const test of tests) if (!test(row)) return false;
    return query === null || query.test(row);
  };
}

/** `$and` / `$or` / `$nor` of filters: each branch compiled as a filter of its own (a conjunction of its keys). */
function logicalTest(key: string, value: unknown, options: QueryOptions): RowTest | null {
  if ((key !== '$and' && key !== '$or' && key !== '$nor') || !Array.isArray(value) || value.length === 0) return null;
  if (!value.every((f) => f !== null && typeof f === 'object' && !Array.isArray(f))) return null;
  const branches = value.map((f: Filter) => compileRowTest(f, options));
  if (key === '$and') return (row) => branches.every((t) => t(row));
  if (key === '$or') return (row) => branches.some((t) => t(row));
  return (row) => !branches.some((t) => t(row));
}


/**
 * The rows of `collection` matching `filter`, in natural order: index-selected candidates (see
 * select-candidates) tested with {@link compileRowTest}. The result of a filter made only of plain equalities
 * (a read scope such as `{ _status: 'published', locale: 'en' }`), or of another filter whose answer depends on the
 * row alone (keptFilter: `{ _status: 'published', views: { $gte: 5000 } }`), is kept, and after writes brought up to date
 * from the collection's changes (apply-changes: a test per changed row, not per stored row), with the sort plans
 * built on it (sort-rows `carryPlans`); when the changes are no longer all logged it is computed again. The array
 * is shared: never mutate it.
 */
export function matchRows(collection: MemoryCollection, filter: Filter, options: QueryOptions): readonly Row[] {
  return compileMatchRows(filter, options)(collection);
}

/**
 * {@link matchRows} of one filter, what it decides from the filter alone (whether it is kept, its key) decided once:
 * for a stage compiled once and run on every read (fast-paths/indexed-match). `filter` must not change afterwards.
 *
 * @example
 * const scope = compileMatchRows({ _status: 'published', locale: 'en' }, options); scope(collection)
 */
export function compileMatchRows(filter: Filter, options: QueryOptions): (collection: MemoryCollection) => readonly Row[] {
  const pure = Object.entries(filter).every(([key, value]) => isPlainField(key) && isIndexable(value));
  if (!pure && !keptFilter(filter)) return (collection) => selectCandidates(collection, filter).filter(compileRowTest(filter, options));
  const byKind = pure ? cached : cachedOthers;
  const key = JSON.stringify(filter);
  return (collection) => {
    let results = byKind.get(collection);
    if (!results) byKind.set(collection, (results = new Map()));
    const entry = results.get(key);
    if (entry?.version === collection.version) return entry.rows;
    const changes = entry ? collection.changesSince(entry.version) : null;
    const test = entry?.test ?? compileRowTest(filter, options);
    let rows: Row[];
    // A result narrowed by an index (a documentId) is cheaper to select again than to update through many changes.
    const candidates = entry && changes && changes.length > FEW_CHANGES ? selectCandidates(collection, filter) : null;
    if (entry && changes && (candidates === null || changes.length <= candidates.length)) {
      const next = applyChanges(entry.rows, changes, test, (row) => collection.sequence(row));
      rows = next.rows;
      carryPlans(entry.rows, next, (row) => collection.sequence(row));
    } else {
      rows = (candidates ?? selectCandidates(collection, filter)).filter(test);
    }
    if (pure && !entry && results.size >= MAX_CACHED) results.clear();
    if (!pure) {
      // Any filter of the request's own (`views > 5000`) is kept too, fewer of them, the least recently used dropped.
      results.delete(key);
      if (results.size >= MAX_OTHERS) results.delete(results.keys().next().value!);
    }
    results.set(key, { version: collection.version, rows: markStable(rows), test });
    return rows;
  };
}

/**
 * Whether the result of a filter other than plain equalities is kept like a scope's: its answer for a row depends on
 * the row alone (no `$expr`, `$where`, `$function` or variable, which may read the time or chance), and its JSON is
 * the filter (plain data: no RegExp, Date or other object, no undefined, no non-finite number), so it can be the key.
 */
function keptFilter(value: unknown): boolean {
  if (typeof value === 'string') return !value.startsWith('$$');
  if (typeof value === 'number') return Number.isFinite(value);
  if (value === null || typeof value === 'boolean') return true;
  if (Array.isArray(value)) return value.every(keptFilter);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.entries(value as Record<string, unknown>).every(([key, inner]) => !VOLATILE_KEYS.has(key) && keptFilter(inner));
}

const VOLATILE_KEYS = new Set(['$expr', '$where', '$function', '$accumulator', '$rand', '$sampleRate', '$text', '$jsonSchema']);

/** A kept result of a plain-equality filter: its rows at `version` and the filter's test. */
interface CachedResult {
  readonly version: number;
  readonly rows: readonly Row[];
  readonly test: RowTest;
}

/** Results of plain-equality filters per collection and filter (its JSON). */
const cached = new WeakMap<MemoryCollection, Map<string, CachedResult>>();
const MAX_CACHED = 256;
/** Results of other filters (keptFilter), per collection, in order of last use. */
const cachedOthers = new WeakMap<MemoryCollection, Map<string, CachedResult>>();
const MAX_OTHERS = 32;
/** Up to this many changes, a kept result is always updated rather than selected again. */
const FEW_CHANGES = 64;
