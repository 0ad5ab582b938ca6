import type { Row } from '../../types';
import { compareBson } from '../semantics/bson-compare';
import { isPlainField } from './match-rows';

/** A stage that may decline a particular input (null: run it in mingo). Mirrors row-stages' PartialStage. */
type Partial = (rows: readonly Row[], owned: boolean) => { rows: Row[]; owned: boolean } | null;

/*
 * The stages of a relation sort key (pipeline/compile-sort), run without mingo: on a sort by `author.name` they run
 * once per matched row, and mingo sets up its options on every call (a copy of its operator tables), which made
 * such a sort over 100,000 rows take seconds. (`$limit` is row-stages' own.)
 */

/**
 * `$project` of `{ _id: 0, <name>: '$<field>', <name>: ['$<field>', ...], ... }` (top-level fields): the manual's
 * computed field, absent when the field is missing, and the array of such fields, a missing one null in it
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/project/); `_id` kept unless excluded.
 * Values are the row's own (not copied), as row-stages' inclusion projection does.
 */
export function projectRefsStage(body: Record<string, unknown>): Partial | null {
  const refs: [string, string | string[]][] = [];
  let withId = true;
  for (const [key, value] of Object.entries(body)) {
    if (key === '_id' && (value === 0 || value === false)) withId = false;
    else if (!isPlainField(key) || key === '_id') return null;
    else if (isRef(value)) refs.push([key, value.slice(1)]);
    else if (Array.isArray(value) && value.every(isRef)) refs.push([key, value.map((v: string) => v.slice(1))]);
    else return null;
  }
  if (refs.length === 0) return null;
  const get = (row: Row, field: string): unknown => (Object.hasOwn(row, field) ? row[field] : undefined);
  return (rows, owned) => {
    const out: Row[] = [];
    for (const row of rows) {
      const projected: Row = {};
      if (withId && Object.hasOwn(row, '_id')) projected._id = row._id;
      for (const [key, field] of refs) {
        const value = typeof field === 'string' ? get(row, field) : field.map((f) => get(row, f) ?? null);
        if (value !== undefined) projected[key] = value;
      }
      out.push(projected);
    }
    return { rows: out, owned };
  };
}

/** `'$<top-level field>'`. */
function isRef(value: unknown): value is string {
  return typeof value === 'string' && /^\$[^$.]/.test(value) && isPlainField(value.slice(1));
}

/**
 * `$addFields: { <key>: { $min | $max: '$<temp>.<field>' } }` (the sort key over a relation's joined rows): the
 * values of `<field>` in the joined rows, null and missing ones ignored, compared in BSON order (compareBson); null
 * when none (https://www.mongodb.com/docs/manual/reference/operator/aggregation/max/: with one operand resolving
 * to an array, the array's elements are compared; "only considers the non-null and the non-missing values").
 * Declines rows whose `<temp>` is not an array of objects.
 */
export function minMaxStage(body: Record<string, unknown>, copyRow: (row: Row) => Row): Partial | null {
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
