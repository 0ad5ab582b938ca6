import type { Row } from '../../../types';
import { compareBson } from '../../semantics/bson-compare';
import { isObject, isPlainField, onlyKey } from '../eligibility';
import type { StagePath } from '../fast-path';
import type { PartialStage } from '../stage-context';


/*
 * The sort key over a relation's joined rows (pipeline/compile-sort), run without mingo: on a sort by
 * `author.name` it runs once per matched row, and mingo sets up its options on every call (a copy of its operator
 * tables), which made such a sort over 100,000 rows take seconds.
 */

/** The path: {@link minMaxStage} of an `$addFields` / `$set` stage. */
export const minMaxKey: StagePath = {
  name: 'min-max-key',
  kind: 'stage',
  operators: ['$addFields', '$set'],
  accepts(stage, cx) {
    const body = onlyKey(stage, '$addFields') ?? onlyKey(stage, '$set');
    return isObject(body) ? minMaxStage(body, cx.copyRow) : null;
  },
};

/**
 * `$addFields: { <key>: { $min | $max: '$<temp>.<field>' } }` (the sort key over a relation's joined rows): the
 * values of `<field>` in the joined rows, null and missing ones ignored, compared in BSON order (compareBson); null
 * when none (https://www.mongodb.com/docs/manual/reference/operator/aggregation/max/: with one operand resolving
 * to an array, the array's elements are compared; "only considers the non-null and the non-missing values").
 * Declines rows whose `<temp>` is not an array of objects.
 */
export function minMaxStage(body: Record<string, unknown>, copyRow: (row: Row) => Row): PartialStage | null {
  const keys = Object.keys(body);
  const spec = body[keys[0]!];
  if (keys.length !== 1 || !isPlainField(keys[0]!) || spec === null || typeof spec !== 'object' || Array.isArray(spec)) return null;
  const ops = Object.keys(spec);
  const ref = (spec as Record<string, unknown>)[ops[0]!];
  if (ops.length !== 1 || (ops[0] !== '$min' && ops[0] !== '$max') || typeof ref !== 'string') return null;
  const parts = ref.slice(1).split('.');
  if (!ref.startsWith('$') || ref.startsWith('$$') || parts.length !== 2 || !parts.every(isPlainField)) return null;
  const [temp, field] = parts as [string, string];
  const key = keys[0]!;
  const sign = ops[0] === '$max' ? 1 : -1;
  return (rows, owned) => {
    const keyed: unknown[] = [];
    for (const row of rows) {
      const joined = Object.hasOwn(row, temp) ? row[temp] : undefined;
      if (!Array.isArray(joined)) return null;
      let best: unknown = null;
      for (const item of joined) {
        if (item === null || typeof item !== 'object' || Array.isArray(item)) return null;
        const value = Object.hasOwn(item, field) ? (item as Row)[field] : undefined;
        if (value === undefined || value === null) continue;
        if (best === null || compareBson(value, best) * sign > 0) best = value;
      }
      keyed.push(best);
    }
    const out = owned ? (rows as Row[]) : rows.map(copyRow);
    out.forEach((row, i) => {
      row[key] = keyed[i];
    });
    return { rows: out, owned: true };
  };
}
