import { Query } from 'mingo';
import type { Filter, Row } from '../types';
import { isIndexable } from './field-index';
import { isPlainField, type RowTest } from './match-rows';
import { Aggregator, type QueryOptions } from './mingo-runtime';

/** The uncorrelated `$lookup`s (`as` -> joined rows) a relation filter's `$match` reads. */
export type Joined = ReadonlyMap<string, Row[]>;

/**
 * Compiles the `$match` that follows the relation-filter lookups (`$lookup` into `__rf<N>`, then
 * `$match { $expr: ... }`, then `$unset` of the temps; see pipeline/compile-filters) into a predicate on the
 * stored row, without attaching the joined arrays to every row. Two membership tests are answered from a `Set`
 * of the joined keys when the row's value is a string / number / boolean (an array of them for the second):
 * - `{ $in: ['$<field>', '$<temp>.<key>'] }`
 * - `{ $gt: [{ $size: { $setIntersection: [{ $ifNull: ['$<field>', []] }, '$<temp>.<key>'] } }, 0] }`
 * `$and` / `$or` / `$nor` are followed; anything else, and any row the sets cannot decide, is tested by mingo on
 * the row with the joined arrays attached. The answers are mingo's: a scalar equals no null, object or array.
 *
 * @example
 * compileJoinedTest({ $expr: { $in: ['$author', '$__rf1.documentId'] } }, joined, options)
 */
export function compileJoinedTest(filter: Filter, joined: Joined, options: QueryOptions): RowTest {
  const withJoined = (row: Row): Row => {
    const out: Row = { ...row };
    for (const [as, rows] of joined) out[as] = rows;
    return out;
  };
  const parts = Object.entries(filter).map(([key, value]) => compileKey(key, value, joined, options, withJoined));
  if (parts.length === 1) return parts[0]!;
  return (row) => parts.every((test) => test(row));
}

function compileKey(key: string, value: unknown, joined: Joined, options: QueryOptions, withJoined: (row: Row) => Row): RowTest {
  const branches = (): RowTest[] | null =>
    Array.isArray(value) && value.length > 0 && value.every(isObject)
      ? value.map((f) => compileJoinedTest(f as Filter, joined, options))
      : null;
  if (key === '$and' || key === '$or' || key === '$nor') {
    const tests = branches();
    if (tests) {
      if (key === '$and') return (row) => tests.every((t) => t(row));
      if (key === '$or') return (row) => tests.some((t) => t(row));
      return (row) => !tests.some((t) => t(row));
    }
  }
  const query = new Query({ [key]: value }, options);
  const exact: RowTest = (row) => query.test(withJoined(row));
  if (key !== '$expr' || !isObject(value)) return exact;
  return membershipTest(value, joined, options, exact) ?? exact;
}

function membershipTest(expr: Record<string, unknown>, joined: Joined, options: QueryOptions, exact: RowTest): RowTest | null {
  const inArgs = onlyArray(expr, '$in');
  if (inArgs?.length === 2) {
    const field = fieldRef(inArgs[0]);
    const keys = keySet(inArgs[1], joined, options);
    if (field === null || keys === null) return null;
    return (row) => {
      const value = Object.hasOwn(row, field) ? row[field] : undefined;
      return isIndexable(value) ? keys.has(value) : exact(row);
    };
  }
  const gtArgs = onlyArray(expr, '$gt');
  if (gtArgs?.length !== 2 || gtArgs[1] !== 0 || !isObject(gtArgs[0])) return null;
  const size = onlyObject(gtArgs[0], '$size');
  const intersection = size && onlyArray(size, '$setIntersection');
  if (intersection?.length !== 2 || !isObject(intersection[0])) return null;
  const ifNull = onlyArray(intersection[0], '$ifNull');
  const emptyFallback = ifNull?.[1];
  if (ifNull?.length !== 2 || !Array.isArray(emptyFallback) || emptyFallback.length !== 0) return null;
  const field = fieldRef(ifNull[0]);
  const keys = keySet(intersection[1], joined, options);
  if (field === null || keys === null) return null;
  return (row) => {
    const value = Object.hasOwn(row, field) ? row[field] : undefined;
    if (!Array.isArray(value) || !value.every(isIndexable)) return exact(row);
    return value.some((v) => keys.has(v));
  };
}

/** `'$<field>'` -> field, for a plain top-level field. */
function fieldRef(value: unknown): string | null {
  return typeof value === 'string' && value.startsWith('$') && isPlainField(value.slice(1)) ? value.slice(1) : null;
}

/**
 * The indexable values of `'$<temp>.<key>'` over the joined rows, evaluated by mingo exactly as in the
 * pipeline; `null` unless it reads a joined temp and yields an array.
 */
function keySet(ref: unknown, joined: Joined, options: QueryOptions): Set<unknown> | null {
  if (typeof ref !== 'string' || !ref.startsWith('$') || ref.startsWith('$$')) return null;
  const as = ref.slice(1).split('.')[0]!;
  const rows = joined.get(as);
  if (!rows) return null;
  let byRef = keySets.get(rows);
  if (!byRef) {
    byRef = new Map();
    keySets.set(rows, byRef);
  }
  if (!byRef.has(ref)) byRef.set(ref, evaluateKeys(rows, as, ref, options));
  return byRef.get(ref) ?? null;
}

/** Key sets per joined array (cached arrays are shared, never mutated) and reference. */
const keySets = new WeakMap<Row[], Map<string, Set<unknown> | null>>();

function evaluateKeys(rows: Row[], as: string, ref: string, options: QueryOptions): Set<unknown> | null {
  const [evaluated] = new Aggregator([{ $project: { _id: 0, v: ref } }], options).run([{ [as]: rows }]) as [Row?];
  const values = evaluated?.v;
  return Array.isArray(values) ? new Set(values.filter(isIndexable)) : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function onlyArray(value: Record<string, unknown>, key: string): unknown[] | null {
  const keys = Object.keys(value);
  const inner = value[key];
  return keys.length === 1 && keys[0] === key && Array.isArray(inner) ? inner : null;
}

function onlyObject(value: Record<string, unknown>, key: string): Record<string, unknown> | null {
  const keys = Object.keys(value);
  const inner = value[key];
  return keys.length === 1 && keys[0] === key && isObject(inner) ? inner : null;
}
