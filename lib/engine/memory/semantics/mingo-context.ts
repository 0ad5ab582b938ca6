import { Context } from 'mingo';
import { manualLookup } from './equality-lookup';
import { comparisonOperators, extremeAccumulators } from './expression-comparison';
import { manualCount, manualSetWindowFields, manualSort } from './manual-stages';
import {
  accumulatorOperators, evalExpr, expressionOperators, pipelineOperators, projectionOperators, queryOperators,
  windowOperators, type LookupOperator,
} from './mingo-runtime';

/**
 * The mingo Context of the general path: every standard operator, with MongoDB's semantics where mingo's differ:
 * - the aggregation comparison operators (`$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$cmp`, `$in`, `$min`, `$max`)
 *   and the `$min` / `$max` accumulators compare value and type in the BSON order (expression-comparison: mingo's
 *   compare like the query operators);
 * - `$sort` in MongoDB's order, `$count` without a document for no input, `$setWindowFields` numbering documents
 *   (`$documentNumber`, which mingo runs through `$function`) (manual-stages);
 * - `$lookup`: `lookup`, by default the manual's (equality-lookup's manualLookup: mingo runs a `localField` +
 *   `pipeline` lookup's pipeline on the whole foreign collection); the engine passes its indexed one
 *   (execution/fast-paths/mingo-indexed-lookup) unless that fast path is switched off.
 * (Merging a context into mingo's default one would keep the defaults: on a clash mingo keeps the first operator.)
 *
 * @example
 * new Aggregator(pipeline, { scriptEnabled: false, context: createContext() }).run(rows)
 */
export function createContext(lookup: LookupOperator = manualLookup): Context {
  return Context.init({
    accumulator: { ...accumulatorOperators, ...extremeAccumulators(accumulatorOperators.$push as never) } as never,
    expression: { ...expressionOperators, ...comparisonOperators(evalExpr as never, accumulatorOperators.$push as never) } as never,
    pipeline: { ...pipelineOperators, $lookup: lookup, $sort: manualSort, $count: manualCount, $setWindowFields: manualSetWindowFields } as never,
    projection: projectionOperators as never,
    query: queryOperators as never,
    window: windowOperators as never,
  });
}
