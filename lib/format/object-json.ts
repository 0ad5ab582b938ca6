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
 * engine's shallowCopy and ajv's validators, so the package already needs code made from strings): each value is read by a property access of its own, with the name in the code (a
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
  const chunks: Uint8Array[] = [];
  const writes: ValueWrite[] = [];
  const code = new EntryCode(chunks, writes);
  const lines = [...entries].map(([key, field]) => code.of(`,${JSON.stringify(key)}:`, field));
  const declare = (prefix: string, n: number, list: string): string =>
    Array.from({ length: n }, (_, i) => `const ${prefix}${i} = ${list}[${i}];`).join('\n');
  const body = `'use strict';
${declare('k', chunks.length, 'chunks')}
${declare('w', writes.length, 'writes')}
return function writeObject(row, out) {
  const start = out.length;
  let v, at;
${lines.join('\n')}
  out.endObject(start);
};`;
  const compile = new Function('chunks', 'writes', 'stored', 'plain', body) as (chunks: Uint8Array[], writes: ValueWrite[], stored: typeof storedValue, plain: typeof plainValue) => RowWrite;
  return compile(chunks, writes, storedValue, plainValue);
}

/** The code of each entry; the bytes it copies as they are (`k0`...) and the ValueWrites it calls (`w0`...) are listed. */
class EntryCode {
  constructor(
    private readonly chunks: Uint8Array[],
    private readonly writes: ValueWrite[],
  ) {}

  /** The code of the entry of `field`, whose key's text (with its leading comma and colon) is `key`. */
  of(key: string, field: Field): string {
    if (field.kind === 'constant') return `  out.bytes(${this.chunk(key + field.json)});`;
    const read = `  v = row[${JSON.stringify(field.name)}];\n`;
    const k = this.chunk(key);
    switch (field.kind) {
      case 'stored': {
        // A missing value is null: the key and null copied in one piece.
        const otherwise = `if (v === null || v === undefined) out.bytes(${this.chunk(`${key}null`)}); else stored(v, out, ${k});`;
        const type = field.type && STORED_TYPEOF[field.type];
        if (type === undefined) return `${read}  ${otherwise}`;
        const typed = type === 'boolean' ? `out.bytes(v ? ${this.chunk(`${key}true`)} : ${this.chunk(`${key}false`)});` : typedCode(type, k);
        return `${read}  if (typeof v === "${type}") ${typed} else ${otherwise}`;
      }
      case 'plain':
        return `${read}  if (typeof v === "number") ${typedCode('number', k)} else if (typeof v === "string") ${typedCode('string', k)} else plain(v, out, ${k});`;
      case 'value': {
        const w = `w${this.writes.length}`;
        this.writes.push(field.write);
        return `${read}  at = out.length; out.bytes(${k}); if (!${w}(v, out)) out.rewind(at);`;
      }
    }
  }

  private chunk(text: string): string {
    this.chunks.push(bytesOf(text));
    return `k${this.chunks.length - 1}`;
  }
}

/** `String(v)` for finite numbers, `null` otherwise: JSON's text of a number `v`. */
const numberCode = '(v - v === 0 ? String(v) : "null")';

function typedCode(type: 'string' | 'number', k: string): string {
  return type === 'string' ? `out.keyString(${k}, v);` : `out.keyAscii(${k}, ${numberCode});`;
}

/** A stored value: null when missing, else writeStoredJson (the key left out when JSON leaves the value out). */
function storedValue(value: unknown, out: JsonBytes, key: Uint8Array): void {
  if (value === undefined || value === null) out.keyAscii(key, 'null');
  else keyed(writeStoredJson, value, out, key);
}

/** `JSON.stringify(value)` (id, documentId: writeJson), the key left out when JSON leaves the value out. */
function plainValue(value: unknown, out: JsonBytes, key: Uint8Array): void {
  keyed(writeJson, value, out, key);
}

/** `key` then what `write` writes of `value`; the key taken back when `write` leaves the value out. */
function keyed(write: ValueWrite, value: unknown, out: JsonBytes, key: Uint8Array): void {
  const start = out.length;
  out.bytes(key);
  if (!write(value, out)) out.rewind(start);
}
