import type { Row } from '../../../types';
import { isObject, isPlainField, onlyKey } from '../eligibility';
import type { StagePath } from '../fast-path';
import type { PartialStage } from '../stage-context';


/*
 * A stage of a relation sort key (pipeline/compile-sort), run without mingo: on a sort by `author.name` it runs
 * once per matched row, and mingo sets up its options on every call (a copy of its operator tables).
 */

/** The path: {@link projectRefsStage} of a `$project` stage. */
export const projectRefs: StagePath = {
  name: 'project-refs',
  kind: 'stage',
  operators: ['$project'],
  accepts(stage) {
    const body = onlyKey(stage, '$project');
    return isObject(body) ? projectRefsStage(body) : null;
  },
};

/**
 * `$project` of `{ _id: 0, <name>: '$<field>', <name>: ['$<field>', ...], ... }` (top-level fields): the manual's
 * computed field, absent when the field is missing, and the array of such fields, a missing one null in it
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/project/); `_id` kept unless excluded.
 * Values are the row's own (not copied), as fast-paths/project-fields does.
 */
export function projectRefsStage(body: Record<string, unknown>): PartialStage | null {
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
