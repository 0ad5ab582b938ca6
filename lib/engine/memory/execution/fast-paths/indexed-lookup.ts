import { isObject, onlyKey } from '../eligibility';
import type { StagePath } from '../fast-path';
import { compileIndexedJoin } from '../indexed-join';

/**
 * An equality `$lookup` of the compiler's shape (`localField`/`foreignField` with `let` and `pipeline`, see
 * lookup-shapes' planLookup) without mingo, with MongoDB's semantics (semantics/equality-lookup): per input row,
 * the local values, the index probe of the foreign field (exact: the rows the server's equality `$match` keeps, in
 * natural order; a scan with that `$match` for values an index does not hold), the relation order (when the
 * pipeline orders by the stored array after its leading `$match`es), then the sub-pipeline compiled once (the
 * planner, nested lookups included) with the `let` variables. The joined rows are copied into a copy of the input
 * row (or into the row itself when it is owned), so the result is owned. A populate or relation sort lookup
 * (row-meter's meteredJoin) counts the rows it joins against the read's AggregateOptions.maxJoinedRows, and puts
 * its segment in front of the path of a ReadLimitError.
 *
 * @example
 * indexedLookup.accepts({ $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [], as: 'author' } }, cx)
 */
export const indexedLookup: StagePath = {
  name: 'indexed-lookup',
  kind: 'stage',
  operators: ['$lookup'],
  accepts(stage, cx) {
    const expr = onlyKey(stage, '$lookup');
    return isObject(expr) ? (compileIndexedJoin(cx, expr)?.run ?? null) : null;
  },
};
