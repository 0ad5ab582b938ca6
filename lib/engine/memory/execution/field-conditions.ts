import { Query } from 'mingo';
import type { Row } from '../../types';
import { isIndexable } from '../storage/field-index';
import type { QueryOptions } from '../semantics/mingo-runtime';

/** A test of one row. */
type Test = (row: Row) => boolean;

/**
 * The field conditions the filter compiler emits most, tested without mingo (a mingo `Query` per condition and row
 * made `$in` lists and `$or`s of text operators over 100,000 rows take seconds), with the manual's answers, which are
 * mingo's here (https://www.mongodb.com/docs/manual/reference/operator/query/in/, .../nin/, .../regex/):
 * - `{ $in: [v...] }` of strings, booleans and finite numbers: the value, or an element of an array value, is one of
 *   them (a Set: 1 and '1' differ, as BSON types do); a missing field matches none;
 * - `{ $nin: [v...] }` its negation (missing fields match), with `$ne: null` (no null, no missing, no array
 *   holding null) when given;
 * - `{ $regex, $options: '' | 'i' }` and `{ $not: { $regex, $options }, $ne?: null }`: a string value, or a string
 *   element of an array value, matches the pattern (the compiler's escaped literal text, read alike by PCRE and JS).
 * A row whose value is an array holding arrays or objects is tested by mingo; null for any other condition (mingo
 * tests it).
 *
 * @example
 * fieldCondition('title', { $in: ['a', 'b'] })?.({ title: 'a' }) // true
 */
export function fieldCondition(field: string, condition: unknown, options?: QueryOptions): Test | null {
  const test = scalarCondition(field, condition);
  if (!test) return null;
  let query: Query | undefined;
  return (row) => {
    const v = Object.hasOwn(row, field) ? row[field] : undefined;
    if (!Array.isArray(v) || v.every((e) => e === null || typeof e !== 'object')) return test(row);
    query ??= new Query({ [field]: condition }, options);
    return query.test(row);
  };
}

/** The test of {@link fieldCondition} for values that are scalars or arrays of scalars. */
function scalarCondition(field: string, condition: unknown): Test | null {
  if (condition === null || typeof condition !== 'object' || Array.isArray(condition)) return null;
  const c = condition as Record<string, unknown>;
  const keys = Object.keys(c).sort().join(',');
  const value = (row: Row): unknown => (Object.hasOwn(row, field) ? row[field] : undefined);
  const notNull = (row: Row): boolean => {
    const v = value(row);
    return v !== undefined && v !== null && !(Array.isArray(v) && v.includes(null));
  };
  if (keys === '$in' || keys === '$nin' || keys === '$ne,$nin') {
    const list = keys === '$in' ? c.$in : c.$nin;
    if (!Array.isArray(list) || !list.every(isIndexable) || (keys === '$ne,$nin' && c.$ne !== null)) return null;
    const set = new Set<unknown>(list);
    const member = (row: Row): boolean => {
      const v = value(row);
      return Array.isArray(v) ? v.some((e) => isIndexable(e) && set.has(e)) : isIndexable(v) && set.has(v);
    };
    if (keys === '$in') return member;
    return keys === '$nin' ? (row) => !member(row) : (row) => !member(row) && notNull(row);
  }
  const negated = keys === '$not' || keys === '$ne,$not';
  const re = regexOf(negated ? c.$not : c);
  if (!re || (keys !== '$options,$regex' && !negated) || (keys === '$ne,$not' && c.$ne !== null)) return null;
  const matches = (row: Row): boolean => {
    const v = value(row);
    return typeof v === 'string' ? re.test(v) : Array.isArray(v) && v.some((e) => typeof e === 'string' && re.test(e));
  };
  if (!negated) return matches;
  return keys === '$not' ? (row) => !matches(row) : (row) => !matches(row) && notNull(row);
}

function regexOf(condition: unknown): RegExp | null {
  if (condition === null || typeof condition !== 'object') return null;
  const { $regex: source, $options: options, ...rest } = condition as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || typeof source !== 'string' || (options !== '' && options !== 'i')) return null;
  try {
    return new RegExp(source, options);
  } catch {
    return null;
  }
}
