import type { Row } from '../../types';
import { Lazy, pipelineOperators, type Iterator, type LookupOperator, type Options } from './mingo-runtime';

type LookupExpr = Parameters<LookupOperator>[1];

/**
 * The values `$lookup` joins a row on through `localField`, as MongoDB computes them: every value along the
 * dotted path, arrays on the way crossed (their documents visited; arrays directly inside arrays are not), an
 * array at the end expanded into its elements, numeric path parts read as array positions; no value at all
 * (a missing field, an empty array) counts as one null. The manual: "If an input document does not contain the
 * localField, $lookup treats the field as having a value of null for matching purposes"
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/); the path walk is the server's
 * `document_path_support::visitAllValuesAtPath`, used by `createMatchStageJoinObj` in
 * src/mongo/db/pipeline/document_source_lookup.cpp (mongodb/mongo).
 *
 * @example
 * localValues({ blocks: [{ image: 1 }, { image: [2, 3] }, { text: 'x' }] }, 'blocks.image') // [1, 2, 3]
 * localValues({}, 'author') // [null]
 */
export function localValues(row: Row, path: string): unknown[] {
  const out: unknown[] = [];
  visit(row, path.split('.'), 0, out);
  return out.length === 0 ? [null] : out;
}

function visit(doc: Record<string, unknown>, parts: readonly string[], start: number, out: unknown[]): void {
  let value: unknown = Object.hasOwn(doc, parts[start]!) ? doc[parts[start]!] : undefined;
  let i = start + 1;
  while (i < parts.length && Array.isArray(value) && /^[0-9]+$/.test(parts[i]!)) {
    value = (value as unknown[])[Number(parts[i])];
    i++;
  }
  if (i === parts.length) {
    if (Array.isArray(value)) {
      for (const item of value) if (item !== undefined) out.push(item);
    } else if (value !== undefined) {
      out.push(value);
    }
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) if (isDocument(item)) visit(item, parts, i, out);
  } else if (isDocument(value)) {
    visit(value, parts, i, out);
  }
}

function isDocument(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The query MongoDB runs on the foreign collection for one input row: `{ <foreignField>: { $eq: v } }` for one
 * value, else one `$eq` per value under `$or`: what the server builds when a value is a regular expression, and
 * equivalent to its `$in` otherwise (query equality: an array field matches when an element equals, null matches
 * null and missing, types are compared strictly). `$or` of `$eq`s because mingo's `$in` does not match an array
 * value against an equal array field, where MongoDB's does; its `$eq` does.
 *
 * @example
 * equalityFilter('documentId', ['a1', 'a2']) // { $or: [{ documentId: { $eq: 'a1' } }, { documentId: { $eq: 'a2' } }] }
 */
export function equalityFilter(foreignField: string, values: readonly unknown[]): Record<string, unknown> {
  const eq = (value: unknown): Record<string, unknown> => ({ [foreignField]: { $eq: value } });
  return values.length === 1 ? eq(values[0]) : { $or: values.map(eq) };
}

/**
 * mingo's pipeline-only `$lookup` of one row with the equality `$match` of {@link equalityFilter} put first:
 * the manual's `localField`/`foreignField` form, with or without `let` and `pipeline` (mingo 7.2.7's own form
 * runs the pipeline on the whole foreign collection). `from` may be an array of candidate rows (a superset of
 * the matching rows, in natural order).
 *
 * @example
 * equalityLookupOne(row, { from: 'b', localField: 'ids', foreignField: 'k', pipeline: [], as: 'j' }, options)
 */
export function equalityLookupOne(obj: Row, expr: LookupExpr, options: Options): Row {
  const { localField, foreignField, pipeline, let: letSpec, ...rest } = expr;
  const match = { $match: equalityFilter(foreignField!, localValues(obj, localField!)) };
  const lookup = { ...rest, let: letSpec ?? {}, pipeline: [match, ...(pipeline ?? [])] };
  return pipelineOperators.$lookup(Lazy([obj]), lookup, options).collect()[0] as Row;
}

/**
 * The general `localField`/`foreignField` `$lookup` (every input row scans the foreign collection), for the
 * shapes fast-paths/mingo-indexed-lookup cannot index. Both fields must be strings, as MongoDB requires.
 *
 * @example
 * equalityLookup(coll, { from: 'b', localField: 'ids', foreignField: 'k', as: 'j' }, options)
 */
export function equalityLookup(coll: Iterator, expr: LookupExpr, options: Options): Iterator {
  if (typeof expr.localField !== 'string' || typeof expr.foreignField !== 'string') {
    throw new Error('$lookup: localField and foreignField must both be strings');
  }
  return coll.map((obj) => equalityLookupOne(obj as Row, expr, options));
}

/**
 * The manual's `$lookup` for mingo's context: the `localField`/`foreignField` forms (with or without `pipeline`)
 * by {@link equalityLookup}, the pipeline-only forms by mingo's own operator (which the manual and mingo agree on).
 *
 * @example
 * createContext(manualLookup)
 */
export function manualLookup(coll: Iterator, expr: LookupExpr, options: Options): Iterator {
  if (expr.localField === undefined && expr.foreignField === undefined) return pipelineOperators.$lookup(coll, expr, options);
  return equalityLookup(coll, expr, options);
}
