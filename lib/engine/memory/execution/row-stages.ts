import type { IdentityCache } from '../../../util/frozen';
import type { Pipeline, Row } from '../../types';
import { deepCopy } from '../storage/deep-copy';
import { isIndexable } from '../storage/field-index';
import { compileRowTest, isPlainField } from './match-rows';
import type { MemoryCollection } from '../storage/memory-collection';
import { mingoStages, type QueryOptions } from '../semantics/mingo-runtime';
import { slimAddFields } from './slim-stages';
import { unwindStage } from './unwind-stage';
import { isObject } from './stage-shape';
import { minMaxStage, projectRefsStage } from './sort-key-stages';
import { firstSorted, planSort } from './sort-rows';
import { windowStage } from './window-stage';

/** Variables bound by enclosing `$lookup`s (`let`). */
export type Vars = Readonly<Record<string, unknown>>;

/**
 * Rows out of a stage. `owned`: every row is a fresh object sharing nothing with stored rows, with another row
 * or with anything else (callers may then hand them out without a copy); otherwise rows may be stored rows.
 */
export interface RowSet {
  readonly rows: Row[];
  readonly owned: boolean;
}

/** A compiled stage (or pipeline): never mutates rows it does not own. */
export type StageFn = (rows: readonly Row[], owned: boolean, vars: Vars) => RowSet;

/** What compiled stages read: mingo options and the collections joined by `$lookup`. */
export interface StageContext {
  readonly options: QueryOptions;
  collection(name: string): MemoryCollection | undefined;
  /**
   * Copies a row before a stage changes it: a deep copy, or a shallow one when the caller only reads the result
   * (then "owned" rows are fresh at the top level only).
   */
  copyRow(row: Row): Row;
  /** Copies joined rows that are not owned (deep copies, or a new array of the same rows for a reader). */
  copyRows(rows: readonly Row[]): Row[];
  /** A fresh array of stored rows made by the caller: kept as it is for a reader, deep copies otherwise. */
  adoptRows(rows: Row[]): Row[];
  /** Whether the caller only reads the result (AggregateOptions.readOnly): rows may then be shared. */
  readonly readOnly?: boolean;
  /** Compiles a `$lookup` stage, or returns null to leave it to mingo (see populate-lookup). */
  lookup(cx: StageContext, expr: Record<string, unknown>): StageFn | null;
  /**
   * What was compiled from frozen stage objects with this context, kept for the next pipeline that holds the same
   * objects (the read path freezes the pipelines it keeps per query, see lib/documents/read-documents and the
   * identity contract of lib/util/frozen). A compiled
   * stage depends only on its stage and on the collection and index objects it reads, which live as long as the
   * engine (a rollback rebuilds indexes in place).
   */
  readonly compiled?: IdentityCache<object, StageFn>;
}

/**
 * Compiles a pipeline into one function that runs the stage shapes the populate compiler emits directly, with
 * mingo's exact result: plain `$match`es (match-rows), `$match` on `$expr` `$eq`/`$ne` between a top-level field
 * and a variable when both sides are strings or finite numbers, `$sort` (sort-rows), `$addFields`/`$set` of
 * `{ $ifNull: [{ $arrayElemAt: ['$f', 0] }, null | { count: 0 }] }` on arrays, `$unset` of top-level fields,
 * `$project` of top-level fields, `$limit`, `$setWindowFields` numbering rows (window-stage), `$unwind` of a
 * top-level field (unwind-stage) and correlated `$lookup`s (see {@link StageContext.lookup}). Anything else, and any row outside those cases, runs
 * in mingo with the enclosing variables.
 *
 * @example
 * compileStages(cx, [{ $match: { _status: 'published' } }, { $sort: { id: 1 } }])(rows, false, {})
 */
export function compileStages(cx: StageContext, stages: Pipeline): StageFn {
  const fns = stages.map((stage) => compiledStage(cx, stage));
  return (rows, owned, vars) => {
    let set: RowSet = { rows: rows as Row[], owned };
    for (const fn of fns) set = fn(set.rows, set.owned, vars);
    return set;
  };
}

/** {@link compileStage}, once per frozen stage object and context (see StageContext.compiled). */
function compiledStage(cx: StageContext, stage: Record<string, unknown>): StageFn {
  return cx.compiled ? cx.compiled.get(stage, () => compileStage(cx, stage)) : compileStage(cx, stage);
}

function compileStage(cx: StageContext, stage: Record<string, unknown>): StageFn {
  const keys = Object.keys(stage);
  const name = keys.length === 1 ? keys[0]! : '';
  const body = stage[name];
  const fallback: StageFn = (name === '$addFields' || name === '$set' ? slimAddFields(cx, stage, body) : null)
    ?? ((rows, _owned, vars) => ({ rows: mingoStages(cx.options, [stage], rows, vars), owned: false }));
  const fn = name === '$match' ? matchStage(cx, body)
    : name === '$sort' ? sortStage(body)
    : name === '$addFields' || name === '$set' ? addFieldsStage(cx, body) ?? (isObject(body) ? minMaxStage(body, cx.copyRow) : null)
    : name === '$unset' ? unsetStage(cx, body)
    : name === '$project' ? projectStage(body) ?? (isObject(body) ? projectRefsStage(body) : null)
    : name === '$limit' ? limitStage(body)
    : name === '$lookup' && isObject(body) ? cx.lookup(cx, body)
    : name === '$setWindowFields' ? windowStage(cx, body)
    : name === '$unwind' ? unwindStage(cx, body)
    : null;
  if (!fn) return fallback;
  // Every stage recognised above gives no row for no row in (mingo is not started).
  return (rows, owned, vars) => fn(rows, owned, vars) ?? (rows.length === 0 ? { rows: [], owned: true } : fallback(rows, owned, vars));
}

/** A stage that may decline a particular input (null: run it in mingo). */
type PartialStage = (rows: readonly Row[], owned: boolean, vars: Vars) => RowSet | null;

function matchStage(cx: StageContext, body: unknown): PartialStage | null {
  if (!isObject(body)) return null;
  const keys = Object.keys(body);
  if (keys.length === 1 && keys[0] === '$expr') return exprMatch(body.$expr);
  const text = JSON.stringify(body);
  if (text.includes('$$') || text.includes('"$expr"') || text.includes('"$where"') || text.includes('"$function"')) return null;
  const test = compileRowTest(body, cx.options);
  return (rows, owned) => ({ rows: rows.filter(test), owned });
}

/** `{ $eq | $ne: ['$<field>', '$$<var>'] }` (either order) on strings or finite numbers of one type. */
function exprMatch(expr: unknown): PartialStage | null {
  if (!isObject(expr) || Object.keys(expr).length !== 1) return null;
  const op = Object.keys(expr)[0];
  const args = expr[op!];
  if ((op !== '$eq' && op !== '$ne') || !Array.isArray(args) || args.length !== 2) return null;
  const refs = args.map((a: unknown) => (typeof a === 'string' ? a : ''));
  const fieldAt = refs.findIndex((r) => /^\$[^$.][^.]*$/.test(r) && isPlainField(r.slice(1)));
  const varRef = refs[1 - fieldAt];
  if (fieldAt < 0 || varRef === undefined || !/^\$\$[a-z][^.]*$/.test(varRef)) return null;
  const field = refs[fieldAt]!.slice(1);
  const variable = varRef.slice(2);
  const eq = op === '$eq';
  return (rows, owned, vars) => {
    const value = vars[variable];
    if (!Object.hasOwn(vars, variable) || !comparable(value)) return null;
    const out: Row[] = [];
    for (const row of rows) {
      const stored = Object.hasOwn(row, field) ? row[field] : undefined;
      if (!comparable(stored)) return null;
      if ((typeof stored === typeof value && stored === value) === eq) out.push(row);
    }
    return { rows: out, owned };
  };
}

/** Strings, and finite numbers other than -0: compared by `===` exactly as mingo compares them. */
function comparable(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0));
}

function sortStage(body: unknown): PartialStage | null {
  if (!isObject(body)) return null;
  return (rows, owned) => {
    const plan = planSort(rows, body);
    return plan ? { rows: firstSorted(rows, plan), owned } : null;
  };
}

/** `{ name: { $ifNull: [{ $arrayElemAt: ['$<field>', 0] }, null | { count: 0 }] } }` per key. */
function addFieldsStage(cx: StageContext, body: unknown): PartialStage | null {
  if (!isObject(body) || Object.keys(body).length === 0) return null;
  const specs: { name: string; field: string; fallback: Row | null }[] = [];
  for (const [name, spec] of Object.entries(body)) {
    const args = isObject(spec) && Object.keys(spec).length === 1 ? spec.$ifNull : undefined;
    if (!isPlainField(name) || !Array.isArray(args) || args.length !== 2) return null;
    const [first, fallback] = args as unknown[];
    const elem = isObject(first) && Object.keys(first).length === 1 ? first.$arrayElemAt : undefined;
    if (!Array.isArray(elem) || elem.length !== 2 || elem[1] !== 0 || typeof elem[0] !== 'string') return null;
    const field = elem[0].slice(1);
    if (!elem[0].startsWith('$') || !isPlainField(field)) return null;
    if (fallback !== null && !(isObject(fallback) && Object.entries(fallback).every(([k, v]) => isPlainField(k) && typeof v === 'number' && Number.isFinite(v)))) return null;
    specs.push({ name, field, fallback: fallback as Row | null });
  }
  const single = specs.length === 1 ? specs[0]! : null;
  const set = (row: Row, s: (typeof specs)[number], value: unknown): void => {
    row[s.name] = value !== undefined && value !== null ? value : s.fallback === null ? null : { ...s.fallback };
  };
  return (rows, owned) => {
    if (!rows.every((row) => specs.every((s) => Array.isArray(row[s.field]) && Object.hasOwn(row, s.field)))) return null;
    const out = owned ? (rows as Row[]) : rows.map((row) => cx.copyRow(row));
    for (const row of out) {
      if (single) {
        // The one spec (the compiler's firstOrNull): no array of values, no closure per row.
        const value = (row[single.field] as unknown[])[0];
        set(row, single, single.name === single.field ? value : deepCopy(value));
        continue;
      }
      // Every value is read before any is set: a spec may name another spec's field.
      const values = specs.map((s) => {
        const value = (row[s.field] as unknown[])[0];
        return s.name === s.field ? value : deepCopy(value);
      });
      specs.forEach((s, i) => set(row, s, values[i]));
    }
    return { rows: out, owned: true };
  };
}

/** `$limit` by a positive integer (what MongoDB accepts): the first rows, in order. */
function limitStage(body: unknown): PartialStage | null {
  if (typeof body !== 'number' || !Number.isSafeInteger(body) || body <= 0) return null;
  return (rows, owned) => ({ rows: rows.slice(0, body), owned });
}

/** `$unset` of top-level fields: the other keys keep their order. */
function unsetStage(cx: StageContext, body: unknown): PartialStage | null {
  const names = typeof body === 'string' ? [body] : body;
  if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string' && isPlainField(n))) return null;
  return (rows, owned) => {
    const out = owned ? (rows as Row[]) : rows.map((row) => cx.copyRow(row));
    for (const row of out) for (const n of names as string[]) delete row[n];
    return { rows: out, owned: true };
  };
}

/**
 * `$project` of top-level fields only (`{ <field>: 1 | true, ... }`, the populate `fields` of the compiler), as
 * mingo runs it: each listed field the row holds (a value other than undefined), then `_id` unless listed, the
 * row's own values (not copied: the rows are owned when the input was).
 */
function projectStage(body: unknown): PartialStage | null {
  if (!isObject(body)) return null;
  const keys = Object.keys(body);
  if (keys.length === 0 || !keys.every((k) => isPlainField(k) && (body[k] === 1 || body[k] === true))) return null;
  const withId = !keys.includes('_id');
  return (rows, owned) => {
    const out: Row[] = [];
    for (const row of rows) {
      const projected: Row = {};
      for (const key of keys) {
        const value = Object.hasOwn(row, key) ? row[key] : undefined;
        if (value !== undefined) projected[key] = value;
      }
      if (withId && Object.hasOwn(row, '_id')) projected._id = row._id;
      out.push(projected);
    }
    return { rows: out, owned };
  };
}

/** Re-exported for the other stage runners (stage-shape). */
export { isObject };

/** Re-exported for populate-lookup: values a hash index holds. */
export { isIndexable };
