/**
 * Shape tests the memory engine's stage runners share: what a pipeline stage or operand looks like before a
 * fast path takes it.
 */

/** True for a plain (non-array) object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The value of `stage` when `key` is its only key, else undefined.
 *
 * @example
 * onlyKey({ $match: { a: 1 } }, '$match') // { a: 1 }
 * onlyKey({ $match: {}, $sort: {} }, '$match') // undefined
 */
export function onlyKey(stage: Record<string, unknown>, key: string): unknown {
  const keys = Object.keys(stage);
  return keys.length === 1 && keys[0] === key ? stage[key] : undefined;
}
