/**
 * pipeline/: a validated Query AST (+ scope) -> ONE MongoDB aggregation pipeline. Pure: no I/O.
 * See docs/query-compilation.md.
 */
export { compileFind, compileFindOne, compileFindOneParts, compileFindOnePage, compileFindRows, type FindOneParts } from './compile-find';
export { compileFilterJoins, type FilterJoinNode } from './compile-filter-joins';
export { longestArray, mostReferrers, type FanOutStatistic } from './compile-fan-out';
export { compileJoinCountPlan, compileJoinCountStep, joinCountRows, selectsOneRow, type JoinCountNode, type JoinCountPair, type JoinCountPlan } from './compile-join-count';
export { PIPELINE_OPERATORS, type PipelineStage } from './operators';
export { escapeRegex } from './text-pattern';
export { readPage, type PageResult } from './page-result';
export { CURSOR_FIELD, isTempField, POSITION_FIELD, RESERVED_PREFIX, TEMP, TOTAL_FIELD, type TempPrefix } from './reserved-fields';
