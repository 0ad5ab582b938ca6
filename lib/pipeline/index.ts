/**
 * pipeline/: a validated Query AST (+ scope) -> ONE MongoDB aggregation pipeline. Pure: no I/O.
 * See docs/query-compilation.md.
 */
export { compileFind, compileFindOne, compileFindOnePage } from './compile-find';
export { PIPELINE_OPERATORS, type PipelineStage } from './operators';
export { escapeRegex } from './text-pattern';
export { POSITION_FIELD, readPage, TOTAL_FIELD, type PageResult } from './page-result';
