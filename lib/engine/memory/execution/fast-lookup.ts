import type { Row } from '../../types';
import { equalityLookup, equalityLookupOne, localValues } from '../semantics/equality-lookup';
import { isPlainField } from './match-rows';
import type { MemoryCollection } from '../storage/memory-collection';
import { Lazy, pipelineOperators, type Iterator, type LookupOperator, type Options } from '../semantics/mingo-runtime';

type LookupExpr = Parameters<LookupOperator>[1];

/** How a `$lookup` stage can be accelerated. */
export type LookupPlan =
  | { kind: 'uncorrelated' }
  | { kind: 'equality'; localField: string; foreignField: string };

/**
 * Recognizes the two `$lookup` shapes the pipeline compiler emits:
 * - equality: `localField` (a dotted path) + `foreignField` (a top-level field), with or without `let` and
 *   `pipeline` (the manual's concise correlated form, https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/);
 * - uncorrelated: `pipeline` without `let`.
 * Anything else (`$documents`, a `let` without `localField`, a dotted `foreignField`) returns `null`.
 */
export function planLookup(expr: LookupExpr): LookupPlan | null {
  if (typeof expr.from !== 'string') return null;
  const pipeline = expr.pipeline;
  if (pipeline !== undefined && (!Array.isArray(pipeline) || pipeline[0]?.$documents !== undefined)) return null;
  const { localField, foreignField } = expr;
  if (localField !== undefined || foreignField !== undefined) {
    if (typeof localField !== 'string' || typeof foreignField !== 'string' || !isPlainField(foreignField)) return null;
    if (!localField.split('.').every((part) => isPlainField(part))) return null;
    return { kind: 'equality', localField, foreignField };
  }
  if (!Array.isArray(pipeline) || Object.keys(expr.let ?? {}).length > 0) return null;
  return { kind: 'uncorrelated' };
}

function onlyKey(value: unknown, key: string): Record<string, unknown> | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  const inner = (value as Record<string, unknown>)[key];
  if (keys.length !== 1 || keys[0] !== key || inner === null || typeof inner !== 'object' || Array.isArray(inner)) return null;
  return inner as Record<string, unknown>;
}

/**
 * A `$lookup` operator for mingo with MongoDB's semantics for every form: equality lookups (`localField` /
 * `foreignField`, never mingo's own form, which runs a sub-pipeline on the whole foreign collection) take the
 * rows whose foreign field equals a local value from a hash index of the `from` collection (exact, in natural
 * order) and run the sub-pipeline on them alone; the shapes the index cannot answer (a value that is an object
 * or an array, a dotted foreign field) scan with equality-lookup's `$match`. Uncorrelated lookups run their
 * sub-pipeline once per stage execution (at the top level: once per aggregate call) and reuse it for every
 * input row. Other pipeline-only lookups are mingo's.
 *
 * @example
 * createContext(createFastLookup((name) => collections.get(name)))
 */
export function createFastLookup(resolve: (name: string) => MemoryCollection | undefined): LookupOperator {
  return function $lookup(coll: Iterator, expr: LookupExpr, options: Options): Iterator {
    const plan = planLookup(expr);
    if (plan?.kind === 'uncorrelated') return uncorrelated(coll, expr, options);
    if (expr.localField === undefined && expr.foreignField === undefined) return pipelineOperators.$lookup(coll, expr, options);
    const from = plan && typeof expr.from === 'string' ? resolve(expr.from) : undefined;
    if (plan?.kind !== 'equality' || !from) return equalityLookup(coll, expr, options);
    const index = from.index(plan.foreignField);
    const { localField: _l, foreignField: _f, ...rest } = expr;
    const joined = { ...rest, let: expr.let ?? {}, pipeline: expr.pipeline ?? [] };
    return coll.map((obj) => {
      const selected = index.selectEqual(localValues(obj as Row, plan.localField));
      return selected ? lookupOne(obj, { ...joined, from: selected }, options) : equalityLookupOne(obj as Row, expr, options);
    });
  };
}

/**
 * The relation-order stages of pipeline/compile-populate, after the leading `$match`es of `stages`:
 * `[{ $addFields: { o: { $indexOfArray: ['$$<var>', '$<key>'] } } }, { $sort: { o: 1, id: 1 } }, { $unset: ['o'] }]`,
 * `<var>` a `let` variable; `at`: the index of the `$addFields`. The order can be applied before those
 * `$match`es (filtering keeps the order of the rows it keeps, and they never see the temporary field).
 */
export function planOrder(stages: readonly Record<string, unknown>[], letSpec: Record<string, unknown>): { at: number; variable: string; key: string; temp: string } | null {
  let at = 0;
  while (at < stages.length && onlyKey(stages[at], '$match')) at++;
  const [add, sort, unset] = stages.slice(at, at + 3);
  const fields = add ? onlyKey(add, '$addFields') : null;
  const names = fields ? Object.keys(fields) : [];
  const temp = names.length === 1 ? names[0] : undefined;
  if (!fields || temp === undefined) return null;
  const spec = fields[temp];
  const args = spec !== null && typeof spec === 'object' && Object.keys(spec).length === 1 ? (spec as Record<string, unknown>).$indexOfArray : undefined;
  if (!Array.isArray(args) || args.length !== 2 || typeof args[0] !== 'string' || !/^\$\$[^$.][^.]*$/.test(args[0])) return null;
  const variable = args[0].slice(2);
  const keyRef: unknown = args[1];
  if (!Object.hasOwn(letSpec, variable) || typeof keyRef !== 'string' || !/^\$[^$.][^.]*$/.test(keyRef)) return null;
  if (JSON.stringify(sort) !== JSON.stringify({ $sort: { [temp]: 1, id: 1 } })) return null;
  if (JSON.stringify(unset) !== JSON.stringify({ $unset: [temp] })) return null;
  return { at, variable, key: keyRef.slice(1), temp };
}

/**
 * `rows` ordered by the position of their `key` in `ids`, then by numeric `id` (stable), as the order stages
 * give; null when `ids` is not an array, or a row has no numeric id, holds the temporary field or has a key
 * that is not in `ids` (the stages decide then).
 */
export function orderRows(rows: readonly Row[], ids: unknown, { key, temp }: { key: string; temp: string }): Row[] | null {
  if (!Array.isArray(ids)) return null;
  const position = new Map<unknown, number>();
  ids.forEach((id, i) => {
    if (!position.has(id)) position.set(id, i);
  });
  const keyed: [number, number, Row][] = [];
  for (const row of rows) {
    const at = Object.hasOwn(row, key) ? position.get(row[key]) : undefined;
    const id = row.id;
    if (at === undefined || Object.hasOwn(row, temp) || typeof id !== 'number' || !Number.isFinite(id) || Object.is(id, -0)) return null;
    keyed.push([at, id, row]);
  }
  keyed.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return keyed.map(([, , row]) => row);
}

function uncorrelated(coll: Iterator, expr: LookupExpr, options: Options): Iterator {
  let joined: Row[] | undefined;
  return coll.map((obj) => {
    joined ??= lookupOne({}, expr, options)[expr.as] as Row[];
    return { ...(obj as Row), [expr.as]: joined.slice() };
  });
}

function lookupOne(obj: unknown, expr: LookupExpr, options: Options): Row {
  return pipelineOperators.$lookup(Lazy([obj]), expr, options).collect()[0] as Row;
}
