import type { Pipeline } from '../../../types';
import { unionStage } from '../../../union-stage';
import type { PipelinePath } from '../fast-path';

/**
 * `$unionWith`: its sub-pipeline run by the planner as a top-level pipeline of its collection (its first `$match`
 * through the indexes, its pages and counts by their fast paths), the rows appended to those in
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/unionWith/).
 */
export const unionPipeline: PipelinePath = {
  name: 'union-pipeline',
  kind: 'pipeline',
  operators: ['$unionWith'],
  accepts(pipeline, at) {
    const union = unionStage(pipeline[at]!);
    if (!union) return null;
    const sub: Pipeline = union.pipeline;
    return {
      next: at + 1,
      run: (input, top) => {
        const other = top.runOn(union.coll, sub);
        return { rows: [...input.rows, ...other.rows], owned: input.owned && other.owned };
      },
    };
  },
};
