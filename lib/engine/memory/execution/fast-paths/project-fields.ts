import type { Row } from '../../../types';
import { isObject, isPlainField, onlyKey } from '../eligibility';
import type { StagePath } from '../fast-path';

/**
 * `$project` of top-level fields only (`{ <field>: 1 | true, ... }`, the populate `fields` of the compiler), as
 * the manual's inclusion projection: each listed field the row holds (a value other than undefined), then `_id`
 * unless listed (https://www.mongodb.com/docs/manual/reference/operator/aggregation/project/), the row's own values
 * (not copied: the rows are owned when the input was).
 */
export const projectFields: StagePath = {
  name: 'project-fields',
  kind: 'stage',
  operators: ['$project'],
  accepts(stage) {
    const body = onlyKey(stage, '$project');
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
  },
};
