import type { Pipeline, Row } from '../types';
import { compileBatchedLookup } from './batched-lookup';
import { isIndexable, type FieldIndex } from './field-index';
import { orderRows, planLookup, planOrder } from './fast-lookup';
import { isPlainField } from './match-rows';
import { evalExpr, mingoStages, withVariables, type Options } from './mingo-runtime';
import { compileStages, isObject, type StageContext, type StageFn, type Vars } from './row-stages';
import { referencedFields, slimRows } from './slim-stages';

/** The `let` variables of every row of a page, in order. */
type LetsFn = (rows: readonly Row[], vars: Vars) => readonly Record<string, unknown>[];

/** The field a page's `let` values are computed into by mingo (see compileLets). */
const LET_FIELD = '__content_router_let';

/**
 * Compiles a correlated `$lookup` of the compiler's shape (see fast-lookup's planLookup) into a stage that
 * runs without mingo: per input row, the `let` variables, the index probe of the key, the relation order, then
 * the rest of the sub-pipeline compiled once (row-stages, nested lookups included). The joined rows are
 * copied into a copy of the input row (or into the row itself when it is owned), so the result is owned.
 * Sub-pipelines without per-row variables after the key (and relation order) take batched-lookup's path: index
 * buckets read directly, each distinct target row tested once per page, no `let` object per row.
 * Null (mingo runs the stage) for every other `$lookup`.
 *
 * @example
 * compileLookup(cx, { from: 'authors', let: { v: '$author' }, pipeline: [{ $match: { $expr: { $eq: ['$documentId', '$$v'] } } }], as: 'author' })
 */
export function compileLookup(cx: StageContext, expr: Record<string, unknown>): StageFn | null {
  const plan = planLookup(expr as never);
  const as = expr.as;
  const from = typeof expr.from === 'string' ? cx.collection(expr.from) : undefined;
  if (plan?.kind !== 'correlated' || !from || typeof as !== 'string' || !isPlainField(as) || !isObject(expr.let)) return null;
  const pipeline = expr.pipeline as Pipeline;
  const letsFn = compileLets(cx, expr.let);
  const rest = pipeline.slice(1);
  const order = planOrder(rest, plan.variable);
  const runAll = compileStages(cx, pipeline);
  const runRest = compileStages(cx, rest);
  const runAfter = order ? compileStages(cx, rest.slice(3)) : runRest;
  const index = from.index(plan.field);
  const batched = compileBatchedLookup(cx, plan, expr.let, rest, order, index);
  const runTail = batched && batched.tail.length > 0 ? compileStages(cx, batched.tail) : null;
  return (rows, owned, outer) => {
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
        out.push(target);
        continue;
      }
      lets ??= letsFn(rows, outer);
      const own = lets[i]!;
      const vars = { ...outer, ...own };
      const value = own[plan.variable];
      const values = plan.operator === '$eq' ? [value] : Array.isArray(value) ? value : null;
      const selected = values ? index.select(values) ?? selectSkippingNullish(index, values) : null;
      let joined;
      if (!selected) {
        const nullish = plan.operator === '$eq' && (value === null || value === undefined);
        joined = runAll(nullish ? index.selectOthers() : from.all(), false, vars);
      } else if (!selected.every((r) => isIndexable(r[plan.field]) && Object.hasOwn(r, plan.field))) {
        joined = runAll(selected, false, vars);
      } else {
        // Every selected row holds a scalar key in `values`: the key `$match` keeps them all.
        const ordered = order ? orderRows(selected, values!, order) : selected;
        joined = ordered ? runAfter(ordered, false, vars) : runRest(selected, false, vars);
      }
      const target = owned ? row : cx.copyRow(row);
      target[as] = joined.owned ? joined.rows : cx.copyRows(joined.rows);
      out.push(target);
    }
    return { rows: out, owned: true };
  };
}

/**
 * The rows holding one of the indexable `values` when every other value is null or undefined and no row holds
 * null, nothing or an object as its key: null and undefined then match no row (a component list whose items
 * lack the media field gives `[null, 3]`). Null otherwise (the caller scans).
 */
function selectSkippingNullish(index: FieldIndex, values: readonly unknown[]): Row[] | null {
  if (index.hasOthers() || !values.every((v) => v === null || v === undefined || isIndexable(v))) return null;
  return index.select(values.filter(isIndexable));
}

/**
 * The `let` variables of each row of a page: `'$<field>'` and `{ $ifNull: ['$<field>', []] }` directly (a
 * missing field is undefined, as in mingo), anything else (the `$reduce` over a component list of a media
 * populate...) through mingo with the enclosing variables, once per page: an `$addFields` of the `let` object
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
