/**
 * The writer of one object of compileDocumentBytes (compile-document-json): its entries (row-json's Field) as
 * one function compiled for them.
 */
import type { ScalarType } from '../schema';
import { bytesOf, type JsonBytes } from './json-bytes';
import { writeJson, writeStoredJson } from './json-value';
import type { Entries, Field, RowWrite, ValueWrite } from './row-json';

/** The `typeof` a stored value of each scalar type has (all but oddly stored values): tested before anything else. */
const STORED_TYPEOF: Partial<Record<ScalarType, 'string' | 'number' | 'boolean'>> = {
  string: 'string',
  text: 'string',
  richtext: 'string',
  email: 'string',
  password: 'string',
  uid: 'string',
  enumeration: 'string',
  biginteger: 'string',
  date: 'string',
  time: 'string',
  datetime: 'string',
  timestamp: 'string',
  integer: 'number',
  float: 'number',
  decimal: 'number',
  boolean: 'boolean',
};

/**
 * Writes the object of `entries` for a row, as one function compiled for them (`new Function`, as the memory
 * engine's shallowCopy): each value is read by a property access of its own, with the name in the code (a
 * closure per entry reading `row[name]` shares one access site between every name and shape, and V8 then reads
 * each through its megamorphic path), and the common case of each entry is written in place: a stored value of
 * the `typeof` its schema type gives (a string attribute's string) in one call with its key; anything else by the
 * general writers. Each entry is written with a leading comma (its key's bytes, kept: `,"name":`) and
 * JsonBytes#endObject turns the first one into the `{`, so no entry asks whether it is the first.
 *
 * The names are written into the code as JSON string literals (valid JavaScript string literals, whatever the
 * name); row-json's `set` already refused `__proto__` and array indexes.
 */
export function objectJson(entries: Entries): RowWrite {
  const keys: Uint8Array[] = [];
  const writes: ValueWrite[] = [];
  const lines: string[] = [];
  for (const [key, field] of entries) {
    const k = `k${keys.length}`;
    keys.push(bytesOf(`,${JSON.stringify(key)}:${field.kind === 'constant' ? field.json : ''}`));
    lines.push(fieldCode(field, k, writes));
  }
  const declare = (prefix: string, n: number, list: string): string =>
    Array.from({ length: n }, (_, i) => `const ${prefix}${i} = ${list}[${i}];`).join('\n');
  const body = `'use strict';
${declare('k', keys.length, 'keys')}
${declare('w', writes.length, 'writes')}
return function writeObject(row, out) {
  const start = out.length;
  let v, at;
${lines.join('\n')}
  out.endObject(start);
};`;
  const compile = new Function('keys', 'writes', 'stored', 'plain', body) as (keys: Uint8Array[], writes: ValueWrite[], stored: typeof storedValue, plain: typeof plainValue) => RowWrite;
  return compile(keys, writes, storedValue, plainValue);
}

/** The code of one entry, its key's bytes in the constant `k`; a ValueWrite it calls is added to `writes`. */
function fieldCode(field: Field, k: string, writes: ValueWrite[]): string {
  if (field.kind === 'constant') return `  out.bytes(${k});`;
  const read = `  v = row[${JSON.stringify(field.name)}];\n`;
  switch (field.kind) {
    case 'stored': {
      const type = field.type && STORED_TYPEOF[field.type];
      if (type === undefined) return `${read}  stored(v, out, ${k});`;
      return `${read}  if (typeof v === "${type}") ${typedCode(type, k)} else stored(v, out, ${k});`;
    }
    case 'plain':
      return `${read}  if (typeof v === "number") out.keyAscii(${k}, ${numberCode}); else if (typeof v === "string") out.keyString(${k}, v); else plain(v, out, ${k});`;
    case 'value': {
      const w = `w${writes.length}`;
      writes.push(field.write);
      return `${read}  at = out.length; out.bytes(${k}); if (!${w}(v, out)) out.rewind(at);`;
    }
  }
}

/** `String(v)` for finite numbers, `null` otherwise: JSON's text of a number `v`. */
const numberCode = '(v - v === 0 ? String(v) : "null")';

function typedCode(type: 'string' | 'number' | 'boolean', k: string): string {
  switch (type) {
    case 'string':
      return `out.keyString(${k}, v);`;
    case 'number':
      return `out.keyAscii(${k}, ${numberCode});`;
    case 'boolean':
      return `out.keyAscii(${k}, v ? "true" : "false");`;
  }
}

/** A stored value: null when missing, else writeStoredJson (the key left out when JSON leaves the value out). */
function storedValue(value: unknown, out: JsonBytes, key: Uint8Array): void {
  if (value === undefined || value === null) {
    out.keyAscii(key, 'null');
    return;
  }
  const start = out.length;
  out.bytes(key);
  if (!writeStoredJson(value, out)) out.rewind(start);
}

/** `JSON.stringify(value)` (id, documentId: writeJson), the key left out when JSON leaves the value out. */
function plainValue(value: unknown, out: JsonBytes, key: Uint8Array): void {
  const start = out.length;
  out.bytes(key);
  if (!writeJson(value, out)) out.rewind(start);
}
