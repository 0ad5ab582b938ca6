import type { Row } from '../../../types';
import { isPlainField, onlyKey } from '../eligibility';
import type { StagePath } from '../fast-path';

/** `$unset` of top-level fields: removed from (copies of) the rows, the other keys keep their order. */
export const unset: StagePath = {
  name: 'unset',
  kind: 'stage',
  operators: ['$unset'],
  accepts(stage, cx) {
    const body = onlyKey(stage, '$unset');
    const names = typeof body === 'string' ? [body] : body;
    if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string' && isPlainField(n))) return null;
    return (rows, owned) => {
      const out = owned ? (rows as Row[]) : rows.map((row) => cx.copyRow(row));
      for (const row of out) for (const n of names as string[]) delete row[n];
      return { rows: out, owned: true };
    };
  },
};
