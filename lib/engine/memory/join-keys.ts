import type { Filter, Row } from '../types';
import { isPlainField } from './match-rows';
import { isObject } from './stage-shape';

/**
 * Where a top-level `localField` value is keyed so that two rows share a key exactly when their values join the
 * same rows (SameValueZero in a `Map`): 0, the value itself, for a string, a boolean, a finite number (0 and -0
 * are one number to MongoDB), null or missing (both join as null); 1, its JSON text, for an array of strings
 * (a space of its own: never mistaken for a string value); -1 for any other value (the row is joined alone).
 */
export function keySpace(value: unknown): 0 | 1 | -1 {
  if (value === null || value === undefined || typeof value === 'string' || typeof value === 'boolean') return 0;
  if (typeof value === 'number') return Number.isFinite(value) ? 0 : -1;
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? 1 : -1;
}

/**
 * The top-level fields a query filter reads, or null when it holds a top-level operator other than `$and` / `$or` /
 * `$nor`, or a field mingo does not read as a plain own property.
 */
export function matchFields(filter: Filter, out = new Set<string>()): Set<string> | null {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!Array.isArray(value) || !value.every((f) => isObject(f) && matchFields(f, out))) return null;
    } else if (key.startsWith('$') || !isPlainField(key.split('.')[0]!)) {
      return null;
    } else {
      out.add(key.split('.')[0]!);
    }
  }
  return out;
}

export function pick(row: Row, fields: ReadonlySet<string>): Row {
  const out: Row = {};
  for (const field of fields) if (Object.hasOwn(row, field)) out[field] = row[field];
  return out;
}
