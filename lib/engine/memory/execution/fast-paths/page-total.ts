import { unionStage } from '../../../union-stage';
import { countName } from '../eligibility';
import type { PipelinePath } from '../fast-path';

/**
 * A list page's total (pipeline/page-result: a `$unionWith` of this same collection through the very same stage
 * objects as this pipeline's first k stages, then `$count`, the Engine port's SharedStages): the number of rows
 * those k stages gave in this run (`counts[k]`), which is what running them again would give: the same stages on
 * the same rows in the same synchronous run. Declines when the run did not count there.
 */
export const pageTotal: PipelinePath = {
  name: 'page-total',
  kind: 'pipeline',
  operators: ['$unionWith'],
  readsEarlierStages: true,
  accepts(pipeline, at) {
    const union = unionStage(pipeline[at]!);
    const sub = union?.pipeline ?? [];
    const k = sub.length - 1;
    const name = k >= 0 ? countName(sub[k]) : null;
    if (!union || name === null || k > at || !sub.slice(0, k).every((stage, j) => stage === pipeline[j])) return null;
    return {
      next: at + 1,
      run: (input, top) => {
        const counted = top.counts[k];
        if (union.coll !== top.collection.name || counted === undefined) return null;
        const total = counted > 0 ? [{ [name]: counted }] : [];
        return { rows: [...input.rows, ...total], owned: input.owned };
      },
    };
  },
};
