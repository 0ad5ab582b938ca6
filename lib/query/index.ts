export { parseQuery, type ParseQueryInput } from './parse-query';
export type { RestLimits } from './parse-pagination';
export * from './types';
