import { fieldVariableTest, isObject, onlyKey, rowsEqualTo } from '../eligibility';
import type { StagePath } from '../fast-path';

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
      const kept = Object.hasOwn(vars, variable) ? rowsEqualTo(rows, field, vars[variable], eq) : null;
      return kept && { rows: kept, owned };
    };
  },
};
