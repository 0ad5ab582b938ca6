import { isLimit, onlyKey } from '../eligibility';
import type { StagePath } from '../fast-path';

/** `$limit` by a positive integer (what MongoDB accepts): the first rows, in order. */
export const limit: StagePath = {
  name: 'limit',
  kind: 'stage',
  operators: ['$limit'],
  accepts(stage) {
    const n = onlyKey(stage, '$limit');
    if (!isLimit(n)) return null;
    return (rows, owned) => ({ rows: rows.slice(0, n), owned });
  },
};
