import type { Pipeline, Row } from '../../types';
import { equalityFilter, localValues } from '../semantics/equality-lookup';
import { evalExpr, mingoStages, withVariables, type Options } from '../semantics/mingo-runtime';
import { isObject, isPlainField, letRef, type LetRef } from './eligibility';
import { orderRows, planLookup, planOrder, underJoinSegment, type LookupPlan } from './lookup-shapes';
import { compileRowTest } from './match-rows';
import { countJoined, meteredJoin, type MeteredJoin } from './row-meter';
import { referencedFields, slimRows } from './slim-rows';
import type { RowSet, StageContext, StageFn, Vars } from './stage-context';
import type { FieldIndex } from '../storage/field-index';

/** The `let` variables of every row of a page, in order. */
export type LetsFn = (rows: readonly Row[], vars: Vars) => readonly Record<string, unknown>[];

/** The field a page's `let` values are computed into by mingo (see compileLets). */
const LET_FIELD = '__content_router_let';

/**
 * The indexed join of an equality `$lookup` (fast-paths/indexed-lookup runs it on a page; fast-paths/batched-lookup
 * joins with it the rows it cannot decide itself).
 */
export interface IndexedJoin {
  readonly plan: Extract<LookupPlan, { kind: 'equality' }>;
  readonly as: string;
  readonly letSpec: Record<string, unknown>;
  readonly pipeline: Pipeline;
  /** The hash index of the foreign field in the `from` collection. */
  readonly index: FieldIndex;
  /** The populate or relation sort lookup's meter (row-meter), or null when it is not counted. */
  readonly metered: MeteredJoin | null;
  /** The `let` values of each row of a page. */
  readonly lets: LetsFn;
  /** One row's joined rows with its variables (the enclosing ones and its `let`). */
  join(row: Row, vars: Vars): RowSet;
  /** The whole stage on a page: each row joined, counted, its segment put in front of a ReadLimitError's path. */
  readonly run: StageFn;
}

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
 * compileIndexedJoin(cx, { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [], as: 'author' })
 */
export function compileIndexedJoin(cx: StageContext, expr: Record<string, unknown>): IndexedJoin | null {
  const plan = planLookup(expr as never);
  const as = expr.as;
  const from = typeof expr.from === 'string' ? cx.collection(expr.from) : undefined;
  const letSpec = expr.let ?? {};
  if (plan?.kind !== 'equality' || !from || typeof as !== 'string' || !isPlainField(as) || !isObject(letSpec)) return null;
  const pipeline = (expr.pipeline ?? []) as Pipeline;
  const letsFn = compileLets(cx, letSpec);
  const order = planOrder(pipeline, letSpec);
  const runAll = cx.compile(pipeline);
  const runOrdered = order ? cx.compile([...pipeline.slice(0, order.at), ...pipeline.slice(order.at + 3)]) : runAll;
  const index = from.index(plan.foreignField);
  /** One row's join: the exact rows (index probe, else a scan), in relation order when asked. */
  const join = (row: Row, vars: Vars): RowSet => {
    const values = localValues(row, plan.localField);
    const selected = index.selectEqual(values) ?? from.all().filter(compileRowTest(equalityFilter(plan.foreignField, values), cx.options));
    const ordered = order ? orderRows(selected, vars[order.variable], order) : null;
    return ordered ? runOrdered(ordered, false, vars) : runAll(selected, false, vars);
  };
  const metered = meteredJoin(as, plan.localField);
  const run = underJoinSegment(metered, (rows: readonly Row[], owned: boolean, outer: Vars): RowSet => {
    const lets = letsFn(rows, outer);
    const out: Row[] = [];
    for (let i = 0; i < rows.length; i++) {
      const joined = join(rows[i]!, { ...outer, ...lets[i]! });
      const target = owned ? rows[i]! : cx.copyRow(rows[i]!);
      target[as] = joined.owned ? joined.rows : cx.copyRows(joined.rows);
      if (metered) countJoined(metered, joined.rows.length);
      out.push(target);
    }
    return { rows: out, owned: true };
  });
  return { plan, as, letSpec, pipeline, index, metered, lets: letsFn, join, run };
}

/**
 * The `let` variables of each row of a page: `'$<field>'` and `{ $ifNull: ['$<field>', []] }` directly (a
 * missing field is undefined, as in mingo), anything else (an expression) through mingo with the enclosing
 * variables, once per page: an `$addFields` of the `let` object into a temporary field, which evaluates it exactly
 * as mingo's `$lookup` does, without setting up mingo's options (a copy of every operator table) once per row.
 */
function compileLets(cx: StageContext, spec: Record<string, unknown>): LetsFn {
  const direct: [string, LetRef][] = [];
  for (const [name, value] of Object.entries(spec)) {
    const ref = letRef(value);
    if (!ref) {
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
    direct.push([name, ref]);
  }
  return (rows) => rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [name, { field, orEmpty }] of direct) {
      const value = Object.hasOwn(row, field) ? row[field] : undefined;
      out[name] = orEmpty && (value === null || value === undefined) ? [] : value;
    }
    return out;
  });
}
