import { comparable, fieldVariableTest, isObject, onlyKey } from '../eligibility';
import type { StagePath } from '../fast-path';
import type { Row } from '../../../types';

/**
 * `$match: { $expr: { $eq | $ne: ['$<field>', '$$<variable>'] } }` (a `$lookup` sub-pipeline's locale or
 * localization test), when the variable and every row's field are strings or finite numbers (eligibility's
 * comparable: `===` is then the aggregation `$eq`, value and type,
 * https://www.mongodb.com/docs/manual/reference/operator/aggregation/eq/); declines any other input.
 *
 * @example
 * variableMatch.accepts({ $match: { $expr: { $eq: ['$locale', '$$locale'] } } }, cx)!(rows, false, { locale: 'en' })
 */
export const variableMatch: StagePath = {
  name: 'variable-match',
  kind: 'stage',
  operators: ['$match'],
  accepts(stage) {
    const body = onlyKey(stage, '$match');
    if (!isObject(body) || Object.keys(body).length !== 1 || !Object.hasOwn(body, '$expr')) return null;
    const test = fieldVariableTest(body.$expr);
    if (!test) return null;
    const { field, variable, eq } = test;
    return (rows, owned, vars) => {
      const value = vars[variable];
      if (!Object.hasOwn(vars, variable) || !comparable(value)) return null;
      const out: Row[] = [];
      for (const row of rows) {
        const stored = Object.hasOwn(row, field) ? row[field] : undefined;
        if (!comparable(stored)) return null;
        if ((typeof stored === typeof value && stored === value) === eq) out.push(row);
      }
      return { rows: out, owned };
    };
  },
};
