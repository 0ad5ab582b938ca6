import { ValidationError } from '../errors';

/** qs's `depth` (parse-raw-query): deeper objects cannot come from a query string either. */
const MAX_NESTING = 21;

/** Keys qs drops from a query string (`allowPrototypes: false`): they would shadow an Object.prototype member. */
function droppedKey(key: string): boolean {
  return key in Object.prototype;
}

function normalizeValue(value: unknown, path: string, level: number): unknown {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new ValidationError(`Invalid value at ${path}: an invalid Date`, { key: path, source: 'query' });
    return value.toISOString();
  }
  if (level > MAX_NESTING) throw new ValidationError(`Invalid key ${path}: nested deeper than ${MAX_NESTING} levels`, { key: path, source: 'query' });
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map((v, i) => normalizeValue(v, `${path}[${i}]`, level + 1));
  const proto: unknown = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto === Object.prototype || proto === null) return normalizeObject(value as Record<string, unknown>, path, level + 1);
  const what = typeof value === 'object' ? `a ${(value as object).constructor?.name ?? 'class instance'}` : `a ${typeof value}`;
  throw new ValidationError(`Invalid value at ${path}: ${what} is not a query value (give plain objects, arrays, strings, numbers, booleans, dates or null)`, {
    key: path,
    source: 'query',
  });
}

function normalizeObject(value: Record<string, unknown>, path: string, level: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === undefined || droppedKey(key)) continue;
    out[key] = normalizeValue(item, path === '' ? key : `${path}[${key}]`, level);
  }
  return out;
}

/**
 * A parameter object (the Document Service's `{ filters, populate, sort, ... }`, a route's default query) ->
 * the shape the query string parses to (parse-raw-query): numbers, booleans and bigints become their strings, a
 * Date its ISO string, `undefined` is dropped, and so are keys qs would drop (`__proto__`, `constructor`, ...);
 * anything but plain objects, arrays, strings, numbers, booleans, dates and null is a 400 `ValidationError`. The
 * parsers then see the same values a query string gives, so both forms validate and answer alike (one difference:
 * an array keeps all its items, where qs turns one of more than 100 into an object).
 *
 * @example
 * normalizeParams({ pagination: { page: 2 }, populate: { author: true } });
 * // { pagination: { page: '2' }, populate: { author: 'true' } }
 */
export function normalizeParams(params: object): Record<string, unknown> {
  return normalizeValue(params, '', 0) as Record<string, unknown>;
}
