import { bytesOf, NEEDS_ESCAPE, type JsonBytes } from './json-bytes';
import { BoundedMemo } from '../util/bounded-memo';
import { ARRAY_BYTES, formatMemos, keptBytes } from './memo-budget';

/**
 * JSON text of single values, exactly as `JSON.stringify` writes them inside a formatted document (see
 * compile-document-json), as strings and written into a JsonBytes. Kept apart so the property tests can compare
 * every case with `JSON.stringify`.
 */

/**
 * `JSON.stringify(value)` (undefined when JSON leaves the key out: undefined, functions, symbols), with the
 * common cases (strings, numbers, booleans, null) answered without a call into the generic serializer.
 */
export function jsonOf(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return value === null ? 'null' : JSON.stringify(value);
  }
}

/**
 * `JSON.stringify(copyValue(value))`, where copyValue is the formatter's deep copy of a stored value (json,
 * blocks, dates): values made of plain objects, arrays, dates and primitives are written as they are (the text is
 * the copy); anything else (class instances, boxed primitives, an own `__proto__` key) is copied first, so the
 * text never differs from what the formatter's copy would give.
 */
export function copiedJsonOf(value: unknown): string | undefined {
  if (typeof value === 'string') return quote(value);
  if (value === null || typeof value !== 'object') return jsonOf(value);
  return JSON.stringify(isPlainTree(value) ? value : copyValue(value));
}

/**
 * Bytes of the text of stored objects by identity (see writeStoredJson); null when JSON leaves them out. Within
 * the format's memo budget.
 */
const storedBytes = new BoundedMemo<object, Uint8Array | null>(formatMemos, (bytes) => (bytes === null ? ARRAY_BYTES : keptBytes(bytes)));

/**
 * Writes {@link copiedJsonOf} of a value read from the engine's rows; false (nothing written) when JSON leaves
 * the key out. The bytes of objects (json, blocks, media formats) are kept by identity. Only for values that are
 * never mutated in place once written: the memory engine replaces a stored row by a deep copy on every write and
 * never changes a stored object (see `__tests__/engine/memory/read-only.test.ts`), and other engines hand out
 * fresh objects on every read.
 */
export function writeStoredJson(value: unknown, out: JsonBytes): boolean {
  if (value === null || typeof value !== 'object') return writeJson(value, out);
  let bytes = storedBytes.get(value);
  if (bytes === undefined) {
    const text = copiedJsonOf(value);
    bytes = storedBytes.set(value, text === undefined ? null : bytesOf(text));
  }
  if (bytes === null) return false;
  out.bytes(bytes);
  return true;
}

/** Writes `JSON.stringify(value)`; false (nothing written) when JSON leaves the key out. */
export function writeJson(value: unknown, out: JsonBytes): boolean {
  switch (typeof value) {
    case 'string':
      out.string(value);
      return true;
    case 'number':
      out.ascii(Number.isFinite(value) ? String(value) : 'null');
      return true;
    case 'boolean':
      out.ascii(value ? 'true' : 'false');
      return true;
    default: {
      if (value === null) {
        out.ascii('null');
        return true;
      }
      const text = JSON.stringify(value) as string | undefined;
      if (text === undefined) return false;
      out.text(text);
      return true;
    }
  }
}

/** Writes {@link copiedJsonOf} of `value`; false (nothing written) when JSON leaves the key out. */
export function writeCopiedJson(value: unknown, out: JsonBytes): boolean {
  if (value === null || typeof value !== 'object') return writeJson(value, out);
  const text = copiedJsonOf(value);
  if (text === undefined) return false;
  out.text(text);
  return true;
}

/** `JSON.stringify(text)`: strings with nothing to escape (most) are only wrapped in quotes. */
function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/**
 * A deep copy of a stored value (json, blocks, dates), so that a formatted document shares nothing with the
 * engine's storage.
 */
export function copyValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyValue);
  if (value instanceof Date) return new Date(value.getTime());
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copyValue((value as Record<string, unknown>)[key]);
  return out;
}

/**
 * True when `JSON.stringify(value)` equals `JSON.stringify(copyValue(value))`: arrays, dates and plain objects
 * (prototype Object.prototype or null) without a `toJSON` or an own `__proto__` key, all the way down.
 */
function isPlainTree(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Array.prototype) {
    if (Object.hasOwn(value, 'toJSON')) return false;
    const array = value as unknown[];
    for (let i = 0; i < array.length; i++) {
      const item = array[i];
      if (item !== null && typeof item === 'object' && !isPlainTree(item)) return false;
    }
    return true;
  }
  if (proto === Date.prototype) return !Object.hasOwn(value, 'toJSON');
  if (proto !== Object.prototype && proto !== null) return false;
  if ('toJSON' in value || Object.hasOwn(value, '__proto__')) return false;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const item = record[key];
    if (item !== null && typeof item === 'object' && !isPlainTree(item)) return false;
  }
  return true;
}
