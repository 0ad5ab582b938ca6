/**
 * Copies a plain JSON-like value (objects, arrays, Dates, primitives). Unlike `structuredClone` it never keeps
 * two references to one object, so no two result rows (nor a result and a stored row) share anything.
 *
 * @example
 * const copy = deepCopy(row); copy.title = 'x'; // the stored row is unchanged
 */
export function deepCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v: unknown) => deepCopy(v)) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = deepCopy((value as Record<string, unknown>)[key]);
  return out as T;
}
