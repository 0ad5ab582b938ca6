/** The `$lookup` shapes of the pipeline compiler, recognised once for the fast paths that join them. */
import type { Row } from '../../types';
import type { LookupOperator } from '../semantics/mingo-runtime';
import { isNumericId, isObject, isPlainField, onlyKey } from './eligibility';
import { underSegment, type MeteredJoin } from './row-meter';

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

/**
 * The relation-order stages of pipeline/compile-populate, after the leading `$match`es of `stages`:
 * `[{ $addFields: { o: { $indexOfArray: ['$$<var>', '$<key>'] } } }, { $sort: { o: 1, id: 1 } }, { $unset: ['o'] }]`,
 * `<var>` a `let` variable; `at`: the index of the `$addFields`. The order can be applied before those
 * `$match`es (filtering keeps the order of the rows it keeps, and they never see the temporary field).
 */
export function planOrder(stages: readonly Record<string, unknown>[], letSpec: Record<string, unknown>): { at: number; variable: string; key: string; temp: string } | null {
  let at = 0;
  while (at < stages.length && isObject(onlyKey(stages[at], '$match'))) at++;
  const [add, sort, unset] = stages.slice(at, at + 3);
  const added = add ? onlyKey(add, '$addFields') : undefined;
  const fields = isObject(added) ? added : null;
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
    if (at === undefined || Object.hasOwn(row, temp) || !isNumericId(id)) return null;
    keyed.push([at, id, row]);
  }
  keyed.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return keyed.map(([, , row]) => row);
}


/**
 * `run` with a counted lookup's segment (row-meter's meteredJoin) put in front of the path of the ReadLimitError it
 * throws; `run` itself when the lookup is not counted.
 */
export function underJoinSegment<F extends (...args: never[]) => unknown>(metered: MeteredJoin | null, run: F): F {
  if (!metered) return run;
  return ((...args: Parameters<F>) => {
    try {
      return run(...args);
    } catch (error) {
      throw underSegment(error, metered.segment);
    }
  }) as F;
}
