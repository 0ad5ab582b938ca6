/**
 * The parts of compileDocumentBytes' writers (compile-document-json) that know nothing of the schema: objects
 * written entry by entry, lists, the bytes kept per row object, and the entries of stored values.
 */
import type { PopulateNode } from '../query/types';
import { bytesOf, type JsonBytes } from './json-bytes';
import { writeJson, writeStoredJson } from './json-value';
import { BoundedMemo } from '../util/bounded-memo';
import { ARRAY_BYTES, formatMemos, keptBytes } from './memo-budget';

export type Row = Record<string, unknown>;

/** Writes the JSON of one value (a populated relation, component, dynamic zone...); false when JSON leaves it out. */
export type ValueWrite = (value: unknown, out: JsonBytes) => boolean;
/** Writes the JSON of one stored row. */
export type RowWrite = (row: Row, out: JsonBytes) => void;
/** Writes one key (`key`: its bytes, with the comma when it is not the first) and value; false when JSON leaves the key out. */
export type EntryWrite = (row: Row, out: JsonBytes, key: Uint8Array) => boolean;

/** Output keys in order, each with the writer of its value (the formatter's `out[key] = ...`, replayed). */
export type Entries = Map<string, EntryWrite>;

export class Unsupported extends Error {}

/**
 * The entry of `name`: its key, then what `write` writes of the row's value; the key is dropped again when JSON
 * leaves the value out (`write` answers false).
 */
export const entry = (name: string, write: ValueWrite): EntryWrite => (row, out, key) => {
  const start = out.length;
  out.bytes(key);
  if (write(row[name], out)) return true;
  out.rewind(start);
  return false;
};

/** A scalar attribute or system field: the stored value, null when missing (the bytes of objects kept). */
export const writeStoredOrNull: ValueWrite = (value, out) => writeStoredJson(value ?? null, out);

/**
 * `write`, with the bytes of each row object kept by identity (see writeStoredJson for why that is safe), when
 * the node (or a document's selection) populates nothing: those are the rows the engine hands out as stored, or
 * the same copies of them again (the memory engine's numbered page rows); populated ones are fresh copies every
 * time, not worth a WeakMap entry. On MongoDB every row is a fresh object: a miss costs a WeakMap look-up and a
 * copy of the row's bytes.
 */
export function byIdentity(node: Pick<PopulateNode, 'populate'>, write: RowWrite): RowWrite {
  if (Object.keys(node.populate).length > 0) return write;
  const writer = ++writers;
  return (row, out) => {
    const kept = rowBytes.get(row);
    if (kept !== undefined) {
      const bytes = bytesOfWriter(kept, writer);
      if (bytes !== undefined) {
        out.bytes(bytes);
        return;
      }
    }
    const start = out.length;
    write(row, out);
    const bytes = out.since(start);
    if (kept === undefined) rowBytes.set(row, [writer, bytes]);
    else {
      // Each row keeps the bytes of its last few writers (selections): a new one drops the oldest.
      if (kept.length >= 2 * WRITERS_PER_ROW) kept.splice(0, 2);
      kept.push(writer, bytes);
      rowBytes.grew(keptBytes(bytes));
    }
  };
}

/** Writers that keep bytes by row, numbered (a row's entry names its writers by number, never holding them). */
let writers = 0;
/** The most writers whose bytes one row keeps. */
const WRITERS_PER_ROW = 4;

/** The bytes each writer wrote for a row: writer number, then bytes, for each. */
type KeptBytes = (number | Uint8Array)[];

function bytesOfWriter(kept: KeptBytes, writer: number): Uint8Array | undefined {
  for (let i = 0; i < kept.length; i += 2) if (kept[i] === writer) return kept[i + 1] as Uint8Array;
  return undefined;
}

/** The bytes of rows as each writer wrote them (by row identity), within the format's memo budget. */
const rowBytes = new BoundedMemo<Row, KeptBytes>(formatMemos, (kept) => {
  let total = ARRAY_BYTES;
  for (let i = 1; i < kept.length; i += 2) total += keptBytes(kept[i] as Uint8Array);
  return total;
});

/** Rows that are objects, each written by `item` (the formatter's `value.filter(isRow).map(...)`). */
export function rowsJson(values: readonly unknown[], item: RowWrite, out: JsonBytes): void {
  out.byte(0x5b);
  let first = true;
  for (const value of values) {
    if (!isRow(value)) continue;
    if (!first) out.byte(0x2c);
    item(value, out);
    first = false;
  }
  out.byte(0x5d);
}

/** Every element written by `item`, holes as null (the formatter's `rows.map(...)`). */
export function arrayJson(rows: readonly Row[], item: RowWrite, out: JsonBytes): void {
  out.byte(0x5b);
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) out.byte(0x2c);
    if (i in rows) item(rows[i]!, out);
    else out.ascii('null');
  }
  out.byte(0x5d);
}

export function objectJson(entries: Entries): RowWrite {
  const firstKeys: Uint8Array[] = [];
  const nextKeys: Uint8Array[] = [];
  const writers: EntryWrite[] = [];
  for (const [key, write] of entries) {
    firstKeys.push(bytesOf(`${JSON.stringify(key)}:`));
    nextKeys.push(bytesOf(`,${JSON.stringify(key)}:`));
    writers.push(write);
  }
  return (row, out) => {
    out.byte(0x7b);
    let first = true;
    for (let i = 0; i < writers.length; i++) {
      if (writers[i]!(row, out, first ? firstKeys[i]! : nextKeys[i]!)) first = false;
    }
    out.byte(0x7d);
  };
}

/** An object literal's assignment: a key set again keeps its place and takes the new value. */
export function set(entries: Entries, key: string, write: EntryWrite): void {
  if (key === '__proto__' || isArrayIndex(key)) throw new Unsupported();
  entries.set(key, write);
}

/** Keys JavaScript orders before all others in an object (and so does JSON.stringify). */
function isArrayIndex(key: string): boolean {
  return /^(0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}

export function isRow(v: unknown): v is Row {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
