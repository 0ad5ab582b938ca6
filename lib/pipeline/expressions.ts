/** Small aggregation-expression builders shared by the compile steps. */

/** The first element of an array expression, or null when it is empty. */
export function firstOrNull(expr: unknown): Record<string, unknown> {
  return { $ifNull: [{ $arrayElemAt: [expr, 0] }, null] };
}
