import type { Row } from '../../../types';
import { mingoStages } from '../../semantics/mingo-runtime';
import { isPlainField, onlyKey } from '../eligibility';
import type { StagePath } from '../fast-path';
import { referencedFields, slimRows } from '../slim-rows';
import type { PartialStage, StageContext } from '../stage-context';

/**
 * `$addFields`/`$set` of top-level fields that mingo evaluates (the component and dynamic-zone stages of a
 * populate: `$map`, `$switch`, `$mergeObjects`...), run on each row reduced to the fields the expressions read
 * (mingo's `$addFields` copies every input row whole), then applied to a copy of the row as mingo applies them: a
 * value sets the field (in its place, or last), undefined removes it. Null when a key is not a plain field or
 * the expressions may read the whole document (`$$ROOT`).
 *
 * @example
 * slimAddFields.accepts({ $addFields: { total: { $add: ['$a', '$b'] } } }, cx)
 */
export const slimAddFields: StagePath = {
  name: 'slim-add-fields',
  kind: 'stage',
  operators: ['$addFields', '$set'],
  accepts(stage, cx) {
    const body = onlyKey(stage, '$addFields') ?? onlyKey(stage, '$set');
    return body === undefined ? null : slimStage(cx, stage, body);
  },
};

function slimStage(cx: StageContext, stage: Record<string, unknown>, body: unknown): PartialStage | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const names = Object.keys(body);
  const fields = referencedFields(body);
  if (names.length === 0 || !names.every(isPlainField) || !fields) return null;
  return (rows, owned, vars) => {
    const computed = mingoStages(cx.options, [stage], slimRows(rows, fields), vars);
    const out = rows.map((row, i) => {
      const target = owned ? (row as Row) : cx.copyRow(row);
      const values = computed[i]!;
      for (const name of names) {
        if (Object.hasOwn(values, name)) target[name] = values[name];
        else delete target[name];
      }
      return target;
    });
    return { rows: out, owned: false };
  };
}

