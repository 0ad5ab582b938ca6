/**
 * Every MongoDB operator the pipeline compiler emits, in one table. Each exists in MongoDB 5.0+ and in mingo 7
 * (`$unionWith`: 4.4; `$setWindowFields`: 5.0);
 * `__tests__/unit/pipeline/operators.test.ts` checks that compiled pipelines use nothing else.
 *
 * @example
 * PIPELINE_OPERATORS.stage.includes('$lookup') // true
 */
export const PIPELINE_OPERATORS = Object.freeze({
  /** Aggregation stages. */
  stage: Object.freeze([
    '$match', '$lookup', '$sort', '$skip', '$limit', '$count', '$project', '$addFields', '$unset', '$unionWith',
    '$setWindowFields', '$unwind',
  ] as const),
  /** Query operators inside `$match` (and `$elemMatch`). */
  query: Object.freeze([
    '$and', '$or', '$nor', '$expr', '$eq', '$ne', '$lt', '$lte', '$gt', '$gte', '$in', '$nin', '$regex', '$options', '$not',
    '$elemMatch', '$size',
  ] as const),
  /** Aggregation expression operators (inside `$expr`, `let`, `$addFields`). */
  expression: Object.freeze([
    '$eq', '$ne', '$gt', '$in', '$and', '$ifNull', '$arrayElemAt', '$indexOfArray', '$size', '$filter', '$map',
    '$mergeObjects', '$cond', '$switch', '$type', '$min', '$max', '$literal', '$not', '$let', '$concat', '$substrCP',
    '$strLenCP', '$indexOfBytes', '$subtract', '$range',
  ] as const),
  /** Window operators (inside `$setWindowFields`). */
  window: Object.freeze(['$documentNumber'] as const),
});

/** One stage name of {@link PIPELINE_OPERATORS}. */
export type PipelineStage = (typeof PIPELINE_OPERATORS.stage)[number];
