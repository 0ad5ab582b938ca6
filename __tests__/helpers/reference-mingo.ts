import type { Pipeline, Row } from '../../lib/engine';
import { Aggregator, Lazy, createContext, pipelineOperators, type Iterator, type LookupOperator, type Options } from '../../lib/engine/memory/semantics/mingo-runtime';

type LookupExpr = Parameters<LookupOperator>[1];

/**
 * The manual's `localField`/`foreignField` values of a row: every value along the path, arrays of documents
 * crossed, an array at the end expanded; none at all is null
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/).
 */
function manualValues(doc: unknown, path: string): unknown[] {
  const [head, ...rest] = path.split('.');
  const value = doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Row)[head!] : undefined;
  if (rest.length === 0) return value === undefined ? [] : Array.isArray(value) ? value : [value];
  return (Array.isArray(value) ? value : [value]).flatMap((item) => manualValues(item, rest.join('.')));
}

/**
 * The reference `$lookup`: the `localField`/`foreignField` form as the manual defines it, built from mingo's
 * pipeline-only form with the equality `$match` put first (query `$in` on the local values); every other form
 * is mingo's own. (mingo 7.2.7 runs the concise form's pipeline on the whole foreign collection.)
 */
function referenceLookup(coll: Iterator, expr: LookupExpr, options: Options): Iterator {
  if (expr.localField === undefined) return pipelineOperators.$lookup(coll, expr, options);
  const { localField, foreignField, pipeline, let: letSpec, ...rest } = expr;
  return coll.map((obj) => {
    const found = manualValues(obj, localField);
    const match = { $match: { [foreignField!]: { $in: found.length > 0 ? found : [null] } } };
    const lookup = { ...rest, let: letSpec ?? {}, pipeline: [match, ...(pipeline ?? [])] };
    return pipelineOperators.$lookup(Lazy([obj]), lookup, options).collect()[0];
  });
}

/**
 * The reference the memory engine's fast paths are compared with: mingo's general path (no indexes, no fast
 * paths) with MongoDB's semantics where mingo differs: the aggregation comparison operators compare value and
 * type in the BSON order, `$min`/`$max` too (createContext installs them: lib/engine/memory/semantics/expression-comparison.ts),
 * and the `localField`/`foreignField` `$lookup` is the manual's ({@link referenceLookup}). `collections` resolves
 * `$lookup`'s `from`. `$sort` is mingo's: MongoDB's order only where no sort key is an array (or a string with code
 * units from U+D800 up); sorts on arrays are asserted against the manual in the contract suite.
 *
 * @example
 * expect(await engine.aggregate('a', pipeline)).toEqual(referenceAggregate(rows, pipeline, (n) => stored.get(n) ?? []));
 */
export function referenceAggregate(rows: readonly Row[], pipeline: Pipeline, collections: (name: string) => Row[]): Row[] {
  const context = createContext(referenceLookup);
  return new Aggregator(pipeline, { scriptEnabled: false, collectionResolver: collections, context } as never).run(rows as Row[]) as Row[];
}
