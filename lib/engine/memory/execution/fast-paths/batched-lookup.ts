import type { Pipeline, Row } from '../../../types';
import { isIndexable, type FieldIndex } from '../../storage/field-index';
import { fieldVariableTest, isLimit, isNumericId, isObject, isPlainField, isRowFilter, letRef, onlyKey, rowsEqualTo, type LetRef } from '../eligibility';
import type { InnerPath, StagePath } from '../fast-path';
import { compileIndexedJoin } from '../indexed-join';
import { planOrder, underJoinSegment, type LookupPlan } from '../lookup-shapes';
import { planInverseOrderSort } from './inverse-order-sort';
import { compileRowTest, type RowTest } from '../match-rows';
import { countedAttempt, countJoined } from '../row-meter';
import type { PartialStage, RowSet, StageContext, Vars } from '../stage-context';

/**
 * The path: an equality `$lookup` whose sub-pipeline {@link compileBatchedLookup} takes. Each row is joined by the
 * batched join, or, when that cannot decide it exactly, by the indexed join of execution/indexed-join (the one
 * fast-paths/indexed-lookup runs), so the path never declines a page; the joined rows are set on a copy of each
 * input row (the row itself when owned) and counted row by row as indexed-lookup does (a read over the join budget
 * stops at the row that goes over, not after joining the whole page).
 *
 * @example
 * batchedLookup.accepts({ $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', let: {}, pipeline: [], as: 'author' } }, cx)
 */
export const batchedLookup: StagePath = {
  name: 'batched-lookup',
  kind: 'stage',
  operators: ['$lookup'],
  accepts(stage, cx) {
    const expr = onlyKey(stage, '$lookup');
    const general = isObject(expr) ? compileIndexedJoin(cx, expr) : null;
    if (!general) return null;
    const { plan, as, metered } = general;
    const batched = compileBatchedLookup(cx, plan, general.letSpec, general.pipeline, general.index);
    if (!batched) return null;
    const runTail = batched.tail.length > 0 ? cx.compile(batched.tail) : null;
    const page = cx.uses(batchedTail.name) ? pageTail(batched.tail) : null;
    const runRest = page && page.rest.length > 0 ? cx.compile(page.rest) : null;
    /** Row by row: each row's joined rows (given, or joined now), its tail run, set and counted. */
    const rowByRow = (rows: readonly Row[], owned: boolean, outer: Vars, given?: readonly (Row[] | null)[]): RowSet => {
      const join = given ? null : batched.start();
      let lets: readonly Record<string, unknown>[] | null = null;
      const out: Row[] = [];
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        const direct = given ? given[i]! : join!(row);
        const target = owned ? row : cx.copyRow(row);
        if (!direct) {
          lets ??= general.lets(rows, outer);
          const joined = general.join(row, { ...outer, ...lets[i]! });
          target[as] = joined.owned ? joined.rows : cx.copyRows(joined.rows);
        } else if (runTail) {
          const tail = runTail(direct, false, outer);
          target[as] = tail.owned ? tail.rows : cx.copyRows(tail.rows);
        } else {
          target[as] = cx.adoptRows(direct); // a fresh array of the join's own
        }
        if (metered) countJoined(metered, (target[as] as Row[]).length);
        out.push(target);
      }
      return { rows: out, owned: true };
    };
    if (!page) return underJoinSegment<PartialStage>(metered, (rows, owned, outer) => rowByRow(rows, owned, outer));
    const { max } = page;
    /**
     * The page at once (batched-tail): each row's joined rows cut to the tail's `$limit`, the rest of the tail run
     * once on all of them together, then split back. Null when a row takes the general path (`joined` then holds
     * every row's join, for the rows run one by one).
     */
    const atOnce = (rows: readonly Row[], owned: boolean, outer: Vars, joined: (Row[] | null)[]): RowSet | null => {
      const join = batched.start();
      let whole = true;
      for (let i = 0; i < rows.length; i++) whole = (joined[i] = join(rows[i]!)) !== null && whole;
      if (!whole) return null;
      const parts = joined as Row[][];
      let total = 0;
      for (let i = 0; i < parts.length; i++) {
        if (parts[i]!.length > max) parts[i] = parts[i]!.slice(0, max);
        total += parts[i]!.length;
      }
      let tail: RowSet | null = null;
      if (runRest && total > 0) {
        const all: Row[] = [];
        for (const part of parts) for (let k = 0; k < part.length; k++) all.push(part[k]!);
        tail = runRest(all, false, outer);
        if (tail.rows.length !== all.length) throw new Error('batched-lookup: the tail is not row-wise');
      }
      // Every row counted before any is set: rows the page owns are changed in place (`as` may be the local
      // field itself), and after an error the row-by-row run must join them as they were.
      if (metered) for (const part of parts) countJoined(metered, part.length);
      const out: Row[] = [];
      let at = 0;
      for (let i = 0; i < rows.length; i++) {
        const n = parts[i]!.length;
        const target = owned ? rows[i]! : cx.copyRow(rows[i]!);
        if (!tail) {
          target[as] = cx.adoptRows(parts[i]!);
        } else {
          const part = tail.rows.slice(at, (at += n));
          target[as] = tail.owned ? part : cx.adoptRows(part);
        }
        out.push(target);
      }
      return { rows: out, owned: true };
    };
    const run: PartialStage = (rows, owned, outer) => {
      const joined = new Array<Row[] | null>(rows.length);
      let declined = false;
      // The counts come in another order (the nested lookups' before this one's): on any error the count is put
      // back and the rows run one by one, whose error is the answer (the first row over the join budget, its path).
      return countedAttempt(() => {
        const set = atOnce(rows, owned, outer, joined);
        declined = set === null;
        return set;
      }, () => rowByRow(rows, owned, outer, declined ? joined : undefined));
    };
    return underJoinSegment(metered, run);
  },
};

/**
 * The inner path of {@link batchedLookup}: when the stages after the join (its tail) are leading `$limit`s and then
 * row-wise stages only (one row out per row in, each from its own row and the enclosing variables alone:
 * `$lookup`, `$addFields`/`$set`, `$project`, `$unset`), each row's joined rows are cut to the limit and the
 * row-wise stages run once on the joined rows of the whole page instead of once per input row (for
 * `populate[author][populate]=avatar`, one nested lookup over the page's authors rather than 25 of one author;
 * for a to-many populate's `$limit`, no sub-pipeline run at all).
 */
export const batchedTail: InnerPath = { name: 'batched-tail', kind: 'inner', within: 'batched-lookup' };

/** Stages that give one row per row, in order, each computed from its own row and the variables alone. */
const ROW_WISE = new Set(['$lookup', '$addFields', '$set', '$project', '$unset']);

/**
 * A tail the page can run at once: leading `$limit`s (positive integers, as MongoDB accepts: `max`, the smallest,
 * cuts each row's joined rows), then row-wise stages only (`rest`); null for any other tail, or an empty one.
 */
function pageTail(tail: Pipeline): { max: number; rest: Pipeline } | null {
  let at = 0;
  let max = Infinity;
  for (; at < tail.length; at++) {
    const n = onlyKey(tail[at], '$limit');
    if (n === undefined) break;
    if (!isLimit(n)) return null;
    max = Math.min(max, n);
  }
  const rest = tail.slice(at);
  if (tail.length === 0 || !rest.every((stage) => Object.keys(stage).length === 1 && ROW_WISE.has(Object.keys(stage)[0]!))) return null;
  return { max, rest };
}

/** The joined rows of one input row (stored rows, in the sub-pipeline's order) in a fresh array, or null: run the general path. */
export type RowJoin = (row: Row) => Row[] | null;

type Equality = Extract<LookupPlan, { kind: 'equality' }>;

/**
 * The common equality `$lookup` (a top-level `localField`) without per-row variables in its sub-pipeline:
 * leading `$match`es that are plain (status, locale, populate filters without `$expr`) or a `$expr` `$eq`/`$ne`
 * between a field and a `let` variable (strings and finite numbers, as fast-paths/variable-match runs them; the localizations'
 * and same-row locale), then either the relation-order stages on the stored array of the local field, a
 * `$sort: { id: 1 }` or the kept order of a to-many `mappedBy` side (fast-paths/inverse-order-sort), then any stages that do not read this lookup's own variables (nested lookups,
 * firstOrNull, projections: the `tail`, run by the caller on each row's joined rows with the enclosing
 * variables). Compiled once per stage; each `start()` (once per input page) returns a join that reads the local
 * value of a row, takes the index buckets directly (no copy, no `let` object, no variables), orders them as the
 * order stages do and tests every distinct target row once per page (memoized). Null when the shape does not
 * fit; the join itself returns null for a row it cannot decide exactly (a local value that is an object, a
 * target row with an array key or an id that is not a finite number under relation order...), which then takes
 * the general path, so the result is always the manual's.
 *
 * @example
 * const join = compileBatchedLookup(cx, plan, expr.let, expr.pipeline, index)?.start(); join?.(row)
 */
export function compileBatchedLookup(cx: StageContext, plan: Equality, letSpec: Record<string, unknown>, pipeline: Pipeline, index: FieldIndex): BatchedLookup | null {
  const refs = directRefs(letSpec);
  const local = plan.localField;
  if (!refs || !isPlainField(local)) return null;
  const tests: RowTest[] = [];
  const exprs: ExprTest[] = [];
  let at = 0;
  for (; at < pipeline.length; at++) {
    const stage = pipeline[at]!;
    const body = onlyKey(stage, '$match');
    if (!isObject(body)) break;
    if (Object.keys(body).length === 1 && Object.hasOwn(body, '$expr')) {
      const expr = exprTest(body.$expr, refs);
      if (!expr) return null;
      exprs.push(expr);
      continue;
    }
    if (!isRowFilter(body)) return null;
    tests.push(compileRowTest(body, cx.options));
  }
  const order = planOrder(pipeline, letSpec);
  if (order && (order.key !== plan.foreignField || refs.get(order.variable)?.field !== local)) return null;
  const sortById = !order && JSON.stringify(pipeline[at]) === '{"$sort":{"id":1}}';
  const inverse = !order && !sortById ? planInverseOrderSort(pipeline, at, refs) : null;
  const tail = pipeline.slice(order ? at + 3 : sortById ? at + 1 : inverse ? at + inverse.stages : at);
  if (tail.length > 0 && readsVariables(tail, new Set(Object.keys(letSpec)))) return null;
  const field = plan.foreignField;
  return { tail, start: () => {
    const passes = tests.length === 0 ? null : new Map<Row, boolean>();
    const keep = (r: Row): boolean => {
      if (!passes) return true;
      let ok = passes.get(r);
      if (ok === undefined) {
        ok = tests.every((test) => test(r));
        passes.set(r, ok);
      }
      return ok;
    };
    const join = (row: Row): Row[] | null => {
      const raw = Object.hasOwn(row, local) ? row[local] : undefined;
      if (order && Array.isArray(raw) && raw.length > 0) return ordered(raw, keep);
      if (!order && isIndexable(raw)) return index.bucket(raw).filter(keep);
      // localField's values: the elements of an array, the value itself; none (missing, []) is one null.
      const values = Array.isArray(raw) ? (raw.length > 0 ? raw : [null]) : [raw === undefined ? null : raw];
      const selected = index.selectEqual(values)?.filter(keep) ?? null;
      // Rows to put in relation order without a stored array: the order stages decide (general path).
      return order && selected && selected.length > 0 ? null : selected;
    };
    /** The buckets of `ids` in the order of the relation-order stages: first position of the key, then id. */
    const ordered = (ids: readonly unknown[], pass: (r: Row) => boolean): Row[] | null => {
      const out: Row[] = [];
      for (let i = 0; i < ids.length; i++) {
        const key = ids[i]!;
        if (!isIndexable(key)) return null;
        if (ids.indexOf(key) < i) continue;
        const bucket = index.bucket(key);
        for (const r of bucket) {
          const id = r.id;
          if (!Object.hasOwn(r, field) || !isIndexable(r[field]) || Object.hasOwn(r, order!.temp) || !isNumericId(id)) return null;
        }
        const sorted = bucket.length > 1 ? bucket.slice().sort((a, b) => (a.id as number) - (b.id as number)) : bucket;
        for (const r of sorted) if (pass(r)) out.push(r);
      }
      return out;
    };
    if (exprs.length === 0 && !sortById && !inverse) return join;
    return (row) => {
      let out = join(row);
      for (const expr of exprs) out = out && expr(row, out);
      if (out && inverse) return inverse.sort(row, out);
      return out && sortById ? byId(out) : out;
    };
  } };
}

/**
 * A batched lookup: `start()` once per input page gives the join; `tail` holds the stages to run on each row's
 * joined rows afterwards (with the enclosing variables only), empty when there are none.
 */
export interface BatchedLookup {
  readonly tail: Pipeline;
  start(): RowJoin;
}

/**
 * True when `stages` may read one of `names` as a variable (`$$<name>`), scopes respected: a nested `$lookup`'s
 * `let` is read in the enclosing scope, and its own names hide the enclosing ones in its sub-pipeline.
 */
export function readsVariables(stages: Pipeline, names: ReadonlySet<string>): boolean {
  if (names.size === 0) return false;
  return stages.some((stage) => {
    const inner = onlyKey(stage, '$lookup');
    const lookup = isObject(inner) ? inner : null;
    if (!lookup || !Array.isArray(lookup.pipeline)) return mentions(stage, names);
    const { pipeline, let: letSpec, ...others } = lookup;
    if (mentions(others, names) || (letSpec !== undefined && mentions(letSpec, names))) return true;
    const hidden = isObject(letSpec) ? Object.keys(letSpec) : [];
    const visible = new Set([...names].filter((name) => !hidden.includes(name)));
    return readsVariables(pipeline as Pipeline, visible);
  });
}

/** True when the JSON text of `value` holds `$$<name>` for one of `names` (followed by `.` or the string's end). */
function mentions(value: unknown, names: ReadonlySet<string>): boolean {
  const text = JSON.stringify(value) ?? '';
  for (const match of text.matchAll(/\$\$([^".]*)/g)) if (names.has(match[1]!)) return true;
  return false;
}

/** Filters the joined rows of one row by a variable `$expr`, or null: a value mingo may compare otherwise. */
type ExprTest = (row: Row, joined: Row[]) => Row[] | null;

/** `{ $eq | $ne: ['$<field>', '$$<var>'] }` (either order) with `<var>` a direct `let` reference, as variable-match runs it. */
function exprTest(expr: unknown, refs: Map<string, LetRef>): ExprTest | null {
  const test = fieldVariableTest(expr);
  const ref = test ? refs.get(test.variable) : undefined;
  if (!test || !ref || ref.orEmpty) return null;
  const { field, eq } = test;
  return (row, joined) => rowsEqualTo(joined, field, Object.hasOwn(row, ref.field) ? row[ref.field] : undefined, eq);
}

/** `$sort: { id: 1 }` (stable) when every id is a finite number other than -0; null otherwise. */
function byId(rows: Row[]): Row[] | null {
  let sorted = true;
  for (let i = 0; i < rows.length; i++) {
    const id = rows[i]!.id;
    if (!isNumericId(id)) return null;
    if (i > 0 && (rows[i - 1]!.id as number) > id) sorted = false;
  }
  return sorted ? rows : rows.sort((a, b) => (a.id as number) - (b.id as number));
}

/** The {@link LetRef} of every `let` entry, or null if one is anything else. */
function directRefs(spec: Record<string, unknown>): Map<string, LetRef> | null {
  const refs = new Map<string, LetRef>();
  for (const [name, value] of Object.entries(spec)) {
    const ref = letRef(value);
    if (!ref) return null;
    refs.set(name, ref);
  }
  return refs;
}
