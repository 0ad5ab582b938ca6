export { parseQuery, type ParseQueryInput } from './parse-query';
export { normalizeParams } from './normalize-params';
export { parseRawQuery } from './parse-raw-query';
export { pageRows, type RestLimits } from './parse-pagination';
export { createQueryCache, deepFreeze, queryBytes, type QueryCache } from './query-cache';
export * from './types';
