import { isObject, onlyKey } from '../eligibility';
import type { StagePath } from '../fast-path';
import { firstSorted, planSort } from '../sort-rows';

/**
 * `$sort` by sort-rows' plans: MongoDB's order (the same keys and comparison as semantics/manual-stages), with
 * rows already in order recognised and plans kept per kept result (a scope sorted again after a write is not
 * sorted from scratch).
 *
 * @example
 * sort.accepts({ $sort: { title: -1, id: 1 } }, cx)!(rows, false, {})
 */
export const sort: StagePath = {
  name: 'sort',
  kind: 'stage',
  operators: ['$sort'],
  accepts(stage) {
    const spec = onlyKey(stage, '$sort');
    if (!isObject(spec)) return null;
    return (rows, owned) => {
      const plan = planSort(rows, spec);
      if (!plan) return null;
      return { rows: firstSorted(rows, plan), owned };
    };
  },
};
