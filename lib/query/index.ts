export { parseQuery, type ParseQueryInput } from './parse-query';
export type { RestLimits } from './parse-pagination';
export { createQueryCache, deepFreeze, type QueryCache } from './query-cache';
export * from './types';
