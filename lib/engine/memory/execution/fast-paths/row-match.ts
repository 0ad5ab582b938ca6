import { isObject, isRowFilter, onlyKey } from '../eligibility';
import type { StagePath } from '../fast-path';
import { compileRowTest } from '../match-rows';

/**
 * `$match` of a filter whose answer depends on the row alone (eligibility's isRowFilter): one row test compiled
 * once (match-rows: plain equalities and the compiler's usual conditions tested directly, the rest by a mingo
 * `Query` of those keys), the rows kept in order.
 *
 * @example
 * rowMatch.accepts({ $match: { _status: 'published' } }, cx)!(rows, false, {})
 */
export const rowMatch: StagePath = {
  name: 'row-match',
  kind: 'stage',
  operators: ['$match'],
  accepts(stage, cx) {
    const body = onlyKey(stage, '$match');
    if (!isObject(body) || !isRowFilter(body)) return null;
    const test = compileRowTest(body, cx.options);
    return (rows, owned) => ({ rows: rows.filter(test), owned });
  },
};
