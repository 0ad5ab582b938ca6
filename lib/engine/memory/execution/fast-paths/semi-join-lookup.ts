import type { Row } from '../../../types';
import { isObject, onlyKey } from '../eligibility';
import type { StagePath } from '../fast-path';
import { meteredJoin } from '../row-meter';
import { compileSemiJoin } from '../semi-join';

/**
 * The path: the `$lookup` of a relation filter inside another `$lookup`'s sub-pipeline (a populate's `filters` on a
 * relation, pipeline/compile-populate), which relation-filter (a top-level path) does not reach. Its joined rows
 * are those of the index probe that pass the sub-pipeline's `$match`es with each nested relation filter answered
 * as a semi-join (execution/semi-join: every target row tested once per page, whichever rows reach it), then its
 * tail (`$limit`, `$project`) as the planner runs it. Run as stages, a chain of nested relation filters joins
 * every row of every level again for each row (each level's fan-out multiplied). Never a counted join (a
 * populate's or a relation sort's: row-meter).
 *
 * @example
 * semiJoinLookup.accepts({ $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId',
 *   pipeline: [{ $match: { name: 'Ann' } }, { $limit: 1 }, { $project: { _id: 1 } }], as: '__rf1' } }, cx)
 */
export const semiJoinLookup: StagePath = {
  name: 'semi-join-lookup',
  kind: 'stage',
  operators: ['$lookup'],
  accepts(stage, cx) {
    const expr = onlyKey(stage, '$lookup');
    if (!isObject(expr) || typeof expr.as !== 'string' || typeof expr.localField !== 'string') return null;
    const as = expr.as;
    if (meteredJoin(as, expr.localField) !== null || as.includes('.') || as.startsWith('$')) return null;
    const plan = compileSemiJoin(cx, stage);
    if (!plan) return null;
    const runTail = plan.tail.length > 0 ? cx.compile(plan.tail) : null;
    return (rows, owned, vars) => {
      const joins = plan.startRows();
      const out: Row[] = [];
      for (const row of rows) {
        const joined = joins(row);
        const target = owned ? row : cx.copyRow(row);
        const tail = runTail ? runTail(joined, false, vars) : { rows: joined, owned: false };
        target[as] = tail.owned ? tail.rows : cx.copyRows(tail.rows);
        out.push(target);
      }
      return { rows: out, owned: true };
    };
  },
};
