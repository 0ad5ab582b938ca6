import { countName } from '../eligibility';
import type { PipelinePath } from '../fast-path';

/**
 * `$count`: the number of rows in, without looking at them; no document for none, as MongoDB
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/count/; semantics/manual-stages gives the
 * same on the general path).
 */
export const count: PipelinePath = {
  name: 'count',
  kind: 'pipeline',
  operators: ['$count'],
  accepts(pipeline, at) {
    const name = countName(pipeline[at]);
    if (name === null) return null;
    return { next: at + 1, run: (input) => ({ rows: input.rows.length > 0 ? [{ [name]: input.rows.length }] : [], owned: true }) };
  },
};
