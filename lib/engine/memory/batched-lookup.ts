import type { Pipeline, Row } from '../types';
import { isIndexable, type FieldIndex } from './field-index';
import type { LookupPlan } from './fast-lookup';
import { compileRowTest, isPlainField, type RowTest } from './match-rows';
import { isObject, type StageContext } from './row-stages';

/** The joined rows of one input row (stored rows, in the sub-pipeline's order) in a fresh array, or null: run the general path. */
export type RowJoin = (row: Row) => Row[] | null;

type Correlated = Extract<LookupPlan, { kind: 'correlated' }>;

/**
 * The common correlated `$lookup` without per-row variables in its sub-pipeline: the key `$match`, the
 * relation-order stages (optional), then only plain `$match`es (status, locale, populate filters without
 * `$expr`), `$match`es on `$expr` `$eq`/`$ne` between a field and a `let` variable (strings and finite numbers, as
 * row-stages runs them; the localizations' locale) and a `$sort: { id: 1 }`, then any stages that do not read this
 * lookup's own variables (nested lookups, firstOrNull, projections: the `tail`, run by the caller on each row's
 * joined rows with the enclosing variables). Compiled once per stage; each `start()` (once per input page) returns
 * a join that reads the key of a row, takes the index buckets directly (no copy, no `let` object, no variables),
 * orders them as the order stages do and tests every distinct target row once per page (memoized). Null when the shape does not
 * fit; the join itself returns null for a row it cannot decide exactly (a key that is not a string, finite
 * number or boolean, a target row holding an array or no key, ids that are not finite numbers...), which then
 * takes the general path, so the result is always mingo's.
 *
 * @example
 * const join = compileBatchedLookup(cx, plan, expr.let, rest, order, index)?.start(); join?.(row)
 */
export function compileBatchedLookup(
  cx: StageContext,
  plan: Correlated,
  letSpec: Record<string, unknown>,
  rest: Pipeline,
  order: { key: string; temp: string } | null,
  index: FieldIndex,
): BatchedLookup | null {
  const refs = directRefs(letSpec);
  const keyRef = refs?.get(plan.variable);
  if (!refs || !keyRef || (order && (order.key !== plan.field || plan.operator !== '$in'))) return null;
  const tests: RowTest[] = [];
  const exprs: ExprTest[] = [];
  const afterOrder = order ? rest.slice(3) : rest;
  // The plain part: `$match`es, then at most a `$sort: { id: 1 }`; the tail (nested lookups, firstOrNull...) runs
  // on the joined rows afterwards, with the enclosing variables only: it must not read this lookup's own.
  let plain = afterOrder.findIndex((stage) => !(isObject(stage) && Object.keys(stage).length === 1 && isObject(stage.$match)));
  if (plain < 0) plain = afterOrder.length;
  const sortById = plain < afterOrder.length && JSON.stringify(afterOrder[plain]) === '{"$sort":{"id":1}}';
  const stages = afterOrder.slice(0, sortById ? plain + 1 : plain);
  const tail = afterOrder.slice(stages.length);
  if (tail.length > 0 && readsVariables(tail, new Set(Object.keys(letSpec)))) return null;
  for (const stage of sortById ? stages.slice(0, -1) : stages) {
    const body = isObject(stage) && Object.keys(stage).length === 1 ? stage.$match : undefined;
    if (!isObject(body)) return null;
    if (Object.keys(body).length === 1 && Object.hasOwn(body, '$expr')) {
      const expr = exprTest(body.$expr, refs);
      if (!expr) return null;
      exprs.push(expr);
      continue;
    }
    const text = JSON.stringify(body);
    if (text.includes('$$') || text.includes('"$expr"') || text.includes('"$where"') || text.includes('"$function"')) return null;
    tests.push(compileRowTest(body, cx.options));
  }
  const { field: local, orEmpty } = keyRef;
  const field = plan.field;
  const keyed = (r: Row): boolean => Object.hasOwn(r, field) && isIndexable(r[field]);
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
      const value = orEmpty && (raw === null || raw === undefined) ? [] : raw;
      if (plan.operator === '$eq') {
        if (!isIndexable(value)) return null;
        const out: Row[] = [];
        for (const r of index.bucket(value)) {
          if (!keyed(r)) return null;
          if (keep(r)) out.push(r);
        }
        return out;
      }
      if (!Array.isArray(value) || !value.every(isIndexable)) return null;
      if (!order) {
        const selected = index.select(value);
        return selected && selected.every(keyed) ? selected.filter(keep) : null;
      }
      const out: Row[] = [];
      for (let i = 0; i < value.length; i++) {
        const key = value[i]!;
        if (value.indexOf(key) < i) continue;
        const bucket = index.bucket(key);
        for (const r of bucket) {
          const id = r.id;
          if (!keyed(r) || Object.hasOwn(r, order.temp) || typeof id !== 'number' || !Number.isFinite(id) || Object.is(id, -0)) return null;
        }
        const sorted = bucket.length > 1 ? bucket.slice().sort((a, b) => (a.id as number) - (b.id as number)) : bucket;
        for (const r of sorted) if (keep(r)) out.push(r);
      }
      return out;
    };
    if (exprs.length === 0 && !sortById) return join;
    return (row) => {
      let out = join(row);
      for (const expr of exprs) out = out && expr(row, out);
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
    const lookup = isObject(stage) && Object.keys(stage).length === 1 && isObject(stage.$lookup) ? stage.$lookup : null;
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

/** `{ $eq | $ne: ['$<field>', '$$<var>'] }` (either order) with `<var>` a direct `let` reference, as row-stages runs it. */
function exprTest(expr: unknown, refs: Map<string, { field: string; orEmpty: boolean }>): ExprTest | null {
  if (!isObject(expr) || Object.keys(expr).length !== 1) return null;
  const op = Object.keys(expr)[0]!;
  const args = expr[op];
  if ((op !== '$eq' && op !== '$ne') || !Array.isArray(args) || args.length !== 2) return null;
  const names = args.map((a: unknown) => (typeof a === 'string' ? a : ''));
  const fieldAt = names.findIndex((r) => /^\$[^$.][^.]*$/.test(r) && isPlainField(r.slice(1)));
  const varRef = names[1 - fieldAt];
  const ref = fieldAt >= 0 && varRef !== undefined && /^\$\$[a-z][^.]*$/.test(varRef) ? refs.get(varRef.slice(2)) : undefined;
  if (!ref || ref.orEmpty) return null;
  const field = names[fieldAt]!.slice(1);
  const eq = op === '$eq';
  return (row, joined) => {
    const value = Object.hasOwn(row, ref.field) ? row[ref.field] : undefined;
    if (!comparable(value)) return null;
    const out: Row[] = [];
    for (const r of joined) {
      const stored = Object.hasOwn(r, field) ? r[field] : undefined;
      if (!comparable(stored)) return null;
      if ((typeof stored === typeof value && stored === value) === eq) out.push(r);
    }
    return out;
  };
}

/** Strings, and finite numbers other than -0: compared by `===` exactly as mingo compares them. */
function comparable(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0));
}

/** `$sort: { id: 1 }` (stable) when every id is a finite number other than -0; null otherwise. */
function byId(rows: Row[]): Row[] | null {
  let sorted = true;
  for (let i = 0; i < rows.length; i++) {
    const id = rows[i]!.id;
    if (typeof id !== 'number' || !Number.isFinite(id) || Object.is(id, -0)) return null;
    if (i > 0 && (rows[i - 1]!.id as number) > id) sorted = false;
  }
  return sorted ? rows : rows.sort((a, b) => (a.id as number) - (b.id as number));
}

/** `name -> '$<field>'` or `{ $ifNull: ['$<field>', []] }` for every `let` entry, or null if one is anything else. */
function directRefs(spec: Record<string, unknown>): Map<string, { field: string; orEmpty: boolean }> | null {
  const refs = new Map<string, { field: string; orEmpty: boolean }>();
  for (const [name, value] of Object.entries(spec)) {
    const ifNull = isObject(value) && Object.keys(value).length === 1 && Array.isArray(value.$ifNull) ? (value.$ifNull as unknown[]) : null;
    const ref = ifNull && ifNull.length === 2 && Array.isArray(ifNull[1]) && ifNull[1].length === 0 ? ifNull[0] : value;
    if (typeof ref !== 'string' || !ref.startsWith('$') || !isPlainField(ref.slice(1))) return null;
    refs.set(name, { field: ref.slice(1), orEmpty: ifNull !== null });
  }
  return refs;
}
