import type { Row } from '../types';
import { isIndexable } from './field-index';
import type { MemoryCollection } from './memory-collection';
import { Lazy, evalExpr, pipelineOperators, type Iterator, type LookupOperator, type Options } from './mingo-runtime';

type LookupExpr = Parameters<LookupOperator>[1];

/** How a `$lookup` stage can be accelerated. */
export type LookupPlan =
  | { kind: 'uncorrelated' }
  | { kind: 'correlated'; operator: '$in' | '$eq'; field: string; variable: string };

/**
 * Recognizes the two `$lookup` shapes the pipeline compiler emits:
 * - correlated: `let` + `pipeline` whose first stage is exactly
 *   `{ $match: { $expr: { $in | $eq: ['$<field>', '$$<var>'] } } }` (`<field>` top-level, `<var>` from `let`);
 * - uncorrelated: `pipeline` without `let`.
 * Anything else (localField/foreignField, `$documents`, other first stages) returns `null`.
 */
export function planLookup(expr: LookupExpr): LookupPlan | null {
  if (typeof expr.from !== 'string' || expr.localField !== undefined || expr.foreignField !== undefined) return null;
  const pipeline = expr.pipeline;
  if (!Array.isArray(pipeline) || pipeline[0]?.$documents !== undefined) return null;
  const letExpr = expr.let ?? {};
  if (Object.keys(letExpr).length === 0) return { kind: 'uncorrelated' };
  const match = onlyKey(pipeline[0], '$match');
  const exprBody = onlyKey(match, '$expr');
  if (!exprBody) return null;
  const operator = Object.keys(exprBody).length === 1 ? (Object.keys(exprBody)[0] as string) : '';
  if (operator !== '$in' && operator !== '$eq') return null;
  const args = exprBody[operator];
  if (!Array.isArray(args) || args.length !== 2) return null;
  const [fieldRef, varRef] = args as unknown[];
  if (typeof fieldRef !== 'string' || !/^\$[^$.][^.]*$/.test(fieldRef)) return null;
  if (typeof varRef !== 'string' || !/^\$\$[^$.][^.]*$/.test(varRef)) return null;
  const variable = varRef.slice(2);
  if (!Object.hasOwn(letExpr, variable)) return null;
  return { kind: 'correlated', operator, field: fieldRef.slice(1), variable };
}

function onlyKey(value: unknown, key: string): Record<string, unknown> | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  const inner = (value as Record<string, unknown>)[key];
  if (keys.length !== 1 || keys[0] !== key || inner === null || typeof inner !== 'object' || Array.isArray(inner)) return null;
  return inner as Record<string, unknown>;
}

/**
 * A `$lookup` operator for mingo that accelerates the compiler's shapes and falls back to mingo's own
 * `$lookup` for everything else. Correlated lookups pre-select the joined rows through a hash index of the
 * `from` collection (a superset, in natural order) and still run the whole sub-pipeline on them, so results are
 * exactly mingo's. Uncorrelated lookups run their sub-pipeline once per stage execution (at the top level: once
 * per aggregate call) and reuse it for every input row.
 *
 * @example
 * createContext(createFastLookup((name) => collections.get(name)))
 */
export function createFastLookup(resolve: (name: string) => MemoryCollection | undefined): LookupOperator {
  return function $lookup(coll: Iterator, expr: LookupExpr, options: Options): Iterator {
    const plan = planLookup(expr);
    if (plan?.kind === 'uncorrelated') return uncorrelated(coll, expr, options);
    const from = typeof expr.from === 'string' ? resolve(expr.from) : undefined;
    if (plan?.kind !== 'correlated' || !from) return pipelineOperators.$lookup(coll, expr, options);
    const index = from.index(plan.field);
    const pipeline = expr.pipeline as NonNullable<LookupExpr['pipeline']>;
    const rest = pipeline.slice(1);
    const order = planOrder(rest, plan.variable);
    const afterOrder = order ? rest.slice(3) : rest;
    return coll.map((obj) => {
      const vars = evalExpr(obj, expr.let, options) as Record<string, unknown>;
      const value = vars[plan.variable];
      const values = plan.operator === '$eq' ? [value] : Array.isArray(value) ? value : null;
      const selected = values ? index.select(values) : null;
      if (!selected) {
        const nullish = plan.operator === '$eq' && (value === null || value === undefined);
        return lookupOne(obj, nullish ? { ...expr, from: index.selectOthers() } : expr, options);
      }
      if (!selected.every((row) => isIndexable(row[plan.field]) && Object.hasOwn(row, plan.field))) return lookupOne(obj, { ...expr, from: selected }, options);
      // Every selected row holds a scalar key in `values`: the key `$match` keeps them all.
      const ordered = order ? orderRows(selected, values!, order) : selected;
      if (!ordered) return lookupOne(obj, { ...expr, from: selected, pipeline: rest }, options);
      if (afterOrder.length === 0) return { ...(obj as Row), [expr.as]: ordered };
      return lookupOne(obj, { ...expr, from: ordered, pipeline: afterOrder }, options);
    });
  };
}

/**
 * The relation-order stages of pipeline/compile-populate right after the key `$match`:
 * `[{ $addFields: { o: { $indexOfArray: ['$$<var>', '$<key>'] } } }, { $sort: { o: 1, id: 1 } }, { $unset: ['o'] }]`.
 */
export function planOrder(stages: readonly Record<string, unknown>[], variable: string): { key: string; temp: string } | null {
  const [add, sort, unset] = stages;
  const fields = add ? onlyKey(add, '$addFields') : null;
  const names = fields ? Object.keys(fields) : [];
  const temp = names.length === 1 ? names[0] : undefined;
  if (!fields || temp === undefined) return null;
  const spec = fields[temp];
  const args = spec !== null && typeof spec === 'object' && Object.keys(spec).length === 1 ? (spec as Record<string, unknown>).$indexOfArray : undefined;
  if (!Array.isArray(args) || args.length !== 2 || args[0] !== `$$${variable}`) return null;
  const keyRef: unknown = args[1];
  if (typeof keyRef !== 'string' || !/^\$[^$.][^.]*$/.test(keyRef)) return null;
  if (JSON.stringify(sort) !== JSON.stringify({ $sort: { [temp]: 1, id: 1 } })) return null;
  if (JSON.stringify(unset) !== JSON.stringify({ $unset: [temp] })) return null;
  return { key: keyRef.slice(1), temp };
}

/**
 * `rows` ordered by the position of their `key` in `ids`, then by numeric `id` (stable), as the order stages
 * give; null when a row has no numeric id or its key is not in `ids` (mingo decides then).
 */
export function orderRows(rows: readonly Row[], ids: readonly unknown[], { key, temp }: { key: string; temp: string }): Row[] | null {
  const position = new Map<unknown, number>();
  ids.forEach((id, i) => {
    if (!position.has(id)) position.set(id, i);
  });
  const keyed: [number, number, Row][] = [];
  for (const row of rows) {
    const at = position.get(row[key]);
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
