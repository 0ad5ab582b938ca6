/** Small aggregation-expression builders shared by the compile steps. */

/**
 * `[a, [b, c], null]` -> `[a, b, c, null]`: the values of a path that crosses one array (repeatable component,
 * dynamic zone), where each item holds a value or an array of values.
 */
export function flattenOnce(expr: unknown): Record<string, unknown> {
  return {
    $reduce: {
      input: { $ifNull: [expr, []] },
      initialValue: [],
      in: { $concatArrays: ['$$value', { $cond: [{ $isArray: '$$this' }, '$$this', ['$$this']] }] },
    },
  };
}

/** The first element of an array expression, or null when it is empty. */
export function firstOrNull(expr: unknown): Record<string, unknown> {
  return { $ifNull: [{ $arrayElemAt: [expr, 0] }, null] };
}
