import type { Pipeline, Row } from '../../types';
import { compileBatchedLookup } from './batched-lookup';
import { equalityFilter, localValues } from '../semantics/equality-lookup';
import { orderRows, planLookup, planOrder } from './fast-lookup';
import { compileRowTest, isPlainField } from './match-rows';
import { evalExpr, mingoStages, withVariables, type Options } from '../semantics/mingo-runtime';
import { compileStages, isObject, type RowSet, type StageContext, type StageFn, type Vars } from './row-stages';
import { countJoined, meteredJoin, underSegment } from './row-meter';
import { referencedFields, slimRows } from './slim-stages';

/** The `let` variables of every row of a page, in order. */
type LetsFn = (rows: readonly Row[], vars: Vars) => readonly Record<string, unknown>[];

/** The field a page's `let` values are computed into by mingo (see compileLets). */
const LET_FIELD = '__content_router_let';

/**
 * Compiles an equality `$lookup` of the compiler's shape (`localField`/`foreignField` with `let` and
 * `pipeline`, see fast-lookup's planLookup) into a stage that runs without mingo, with MongoDB's semantics
 * (equality-lookup): per input row, the local values, the index probe of the foreign field (exact: the rows the
 * server's equality `$match` keeps, in natural order), the relation order (when the pipeline orders by the stored
 * array after its leading `$match`es), then the sub-pipeline compiled once (row-stages, nested lookups included)
 * with the `let` variables. The joined rows are copied into a copy of the input row (or into the row itself when
 * it is owned), so the result is owned. Sub-pipelines without per-row variables (but a `$expr` `$eq`/`$ne` with
 * one, and the relation order) take batched-lookup's path: index buckets read directly, each distinct target
 * row tested once per page, no `let` object per row. Null (mingo's context runs the stage, see fast-lookup)
 * for every other `$lookup`. A populate or relation sort lookup (row-meter's meteredJoin) counts the rows it joins
 * against the read's AggregateOptions.maxJoinedRows, and puts its segment in front of the path of a ReadLimitError.
 *
 * @example
 * compileLookup(cx, { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [], as: 'author' })
 */
export function compileLookup(cx: StageContext, expr: Record<string, unknown>): StageFn | null {
  const plan = planLookup(expr as never);
  const as = expr.as;
  const from = typeof expr.from === 'string' ? cx.collection(expr.from) : undefined;
  const letSpec = expr.let ?? {};
  if (plan?.kind !== 'equality' || !from || typeof as !== 'string' || !isPlainField(as) || !isObject(letSpec)) return null;
  const pipeline = (expr.pipeline ?? []) as Pipeline;
  const letsFn = compileLets(cx, letSpec);
  const order = planOrder(pipeline, letSpec);
  const runAll = compileStages(cx, pipeline);
  const runOrdered = order ? compileStages(cx, [...pipeline.slice(0, order.at), ...pipeline.slice(order.at + 3)]) : runAll;
  const index = from.index(plan.foreignField);
  const batched = compileBatchedLookup(cx, plan, letSpec, pipeline, index);
  const runTail = batched && batched.tail.length > 0 ? compileStages(cx, batched.tail) : null;
  /** One row's join on the general path: the exact rows (index probe, else a scan), in relation order when asked. */
  const general = (row: Row, vars: Vars): RowSet => {
    const values = localValues(row, plan.localField);
    const selected = index.selectEqual(values) ?? from.all().filter(compileRowTest(equalityFilter(plan.foreignField, values), cx.options));
    const ordered = order ? orderRows(selected, vars[order.variable], order) : null;
    return ordered ? runOrdered(ordered, false, vars) : runAll(selected, false, vars);
  };
  const metered = meteredJoin(as, plan.localField);
  const run: StageFn = (rows, owned, outer) => {
    const out: Row[] = [];
    const join = batched?.start();
    let lets: readonly Record<string, unknown>[] | null = null;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const direct = join?.(row);
      if (direct) {
        const target = owned ? row : cx.copyRow(row);
        if (runTail) {
          const tail = runTail(direct, false, outer);
          target[as] = tail.owned ? tail.rows : cx.copyRows(tail.rows);
        } else {
          target[as] = cx.adoptRows(direct); // a fresh array of the join's own
        }
        if (metered) countJoined(metered, (target[as] as Row[]).length);
        out.push(target);
        continue;
      }
      lets ??= letsFn(rows, outer);
      const joined = general(row, { ...outer, ...lets[i]! });
      const target = owned ? row : cx.copyRow(row);
      target[as] = joined.owned ? joined.rows : cx.copyRows(joined.rows);
      if (metered) countJoined(metered, joined.rows.length);
      out.push(target);
    }
    return { rows: out, owned: true };
  };
  if (!metered) return run;
  return (rows, owned, outer) => {
    try {
      return run(rows, owned, outer);
    } catch (error) {
      throw underSegment(error, metered.segment);
    }
  };
}

/**
 * The `let` variables of each row of a page: `'$<field>'` and `{ $ifNull: ['$<field>', []] }` directly (a
 * missing field is undefined, as in mingo), anything else (an expression) through mingo with the enclosing variables, once per page: an `$addFields` of the `let` object
 * into a temporary field, which evaluates it exactly as mingo's `$lookup` does, without setting up mingo's
 * options (a copy of every operator table) once per row.
 */
function compileLets(cx: StageContext, spec: Record<string, unknown>): LetsFn {
  const direct: [string, string, boolean][] = [];
  for (const [name, value] of Object.entries(spec)) {
    const ifNull = isObject(value) && Object.keys(value).length === 1 && Array.isArray(value.$ifNull) ? (value.$ifNull as unknown[]) : null;
    const ref = ifNull && ifNull.length === 2 && Array.isArray(ifNull[1]) && ifNull[1].length === 0 ? ifNull[0] : value;
    if (typeof ref !== 'string' || !ref.startsWith('$') || !isPlainField(ref.slice(1))) {
      const stage = [{ $addFields: { [LET_FIELD]: spec } }];
      const fields = referencedFields(spec);
      return (rows, vars) => {
        if (!fields || fields.has(LET_FIELD)) {
          // The whole row may be read ($$ROOT), or the expressions read the temporary field itself: row by row.
          const options = withVariables(cx.options, vars) as Options;
          return rows.map((row) => evalExpr(row, spec, options) as Record<string, unknown>);
        }
        // Each row reduced to the fields the expressions read: mingo's $addFields copies its input rows.
        return mingoStages(cx.options, stage, slimRows(rows, fields), vars).map((row) => row[LET_FIELD] as Record<string, unknown>);
      };
    }
    direct.push([name, ref.slice(1), ifNull !== null]);
  }
  return (rows) => rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [name, field, orEmpty] of direct) {
      const value = Object.hasOwn(row, field) ? row[field] : undefined;
      out[name] = orEmpty && (value === null || value === undefined) ? [] : value;
    }
    return out;
  });
}
