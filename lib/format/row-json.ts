/**
 * The parts of compileDocumentBytes' writers (compile-document-json) that know nothing of the schema: the entries
 * of an object (compiled by object-json), lists, and the bytes kept per row object.
 */
import type { PopulateMap } from '../query/types';
import type { ScalarType } from '../schema';
import type { JsonBytes } from './json-bytes';
import { BoundedMemo } from '../util/bounded-memo';
import { ARRAY_BYTES, formatMemos, keptBytes } from './memo-budget';

export type Row = Record<string, unknown>;

/** Writes the JSON of one value (a populated relation, component, dynamic zone...); false when JSON leaves it out. */
export type ValueWrite = (value: unknown, out: JsonBytes) => boolean;
/** Writes the JSON of one stored row. */
export type RowWrite = (row: Row, out: JsonBytes) => void;
/**
 * How one output key's value is read from a row and written: `stored`, a scalar attribute or system field (the
 * stored value, null when missing, the bytes of objects kept: writeStoredJson), with its schema type when known;
 * `plain`, `JSON.stringify` of the value (id, documentId); `value`, what `write` writes of it; `constant`, the
 * same JSON text for every row. JSON leaves the key out when its value is (`write` answers false).
 */
export type Field =
  | { readonly kind: 'stored'; readonly name: string; readonly type: ScalarType | undefined }
  | { readonly kind: 'plain'; readonly name: string }
  | { readonly kind: 'value'; readonly name: string; readonly write: ValueWrite }
  | { readonly kind: 'constant'; readonly json: string };

/** Output keys in order, each with how its value is written (the formatter's `out[key] = ...`, replayed). */
export type Entries = Map<string, Field>;

export class Unsupported extends Error {}

/** The entry of `name`: what `write` writes of the row's value (the key left out when `write` answers false). */
export const entry = (name: string, write: ValueWrite): Field => ({ kind: 'value', name, write });

/** A scalar attribute or system field of type `type`: the stored value, null when missing. */
export const storedEntry = (name: string, type: ScalarType | undefined): Field => ({ kind: 'stored', name, type });

/** `JSON.stringify` of the row's value (id, documentId); the key left out when JSON leaves the value out. */
export const plainEntry = (name: string): Field => ({ kind: 'plain', name });

/** The JSON text of `value`, the same for every row. */
export const constantEntry = (value: unknown): Field => ({ kind: 'constant', json: JSON.stringify(value) });

/**
 * `write`, with the bytes of each row object kept by identity (see writeStoredJson for why that is safe), when
 * the selection populates nothing: those are the rows the engine hands out as stored (populated ones are fresh
 * copies every time, not worth a WeakMap entry). An engine may hand out new objects on every read (MongoDB, a
 * projection): keeping their bytes is then pure cost (a copy and a WeakMap entry per row, about twice the
 * writing), so a writer whose kept rows come back less than once in {@link SAMPLE} misses keeps only one row in
 * {@link SAMPLE}, until they come back again (counted per {@link WINDOW} misses).
 */
export function byIdentity(selection: { readonly populate: PopulateMap }, write: RowWrite): RowWrite {
  if (Object.keys(selection.populate).length > 0) return write;
  const writer = ++writers;
  let misses = 0;
  let hits = 0;
  let sampling = false;
  return (row, out) => {
    const kept = rowBytes.get(row);
    if (kept !== undefined) {
      const bytes = bytesOfWriter(kept, writer);
      if (bytes !== undefined) {
        hits++;
        out.bytes(bytes);
        return;
      }
    }
    if (++misses === WINDOW) {
      sampling = hits * SAMPLE < WINDOW;
      misses = 0;
      hits = 0;
    }
    if (sampling && misses % SAMPLE !== 0) {
      write(row, out);
      return;
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

/** The misses after which a writer decides again whether to keep every row's bytes or one in {@link SAMPLE}. */
const WINDOW = 1024;
/** A writer keeps one row in SAMPLE while fewer than one in SAMPLE of its misses come back as hits. */
const SAMPLE = 64;

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

/** An object literal's assignment: a key set again keeps its place and takes the new value. */
export function set(entries: Entries, key: string, field: Field): void {
  if (key === '__proto__' || isArrayIndex(key)) throw new Unsupported();
  entries.set(key, field);
}

/** Keys JavaScript orders before all others in an object (and so does JSON.stringify). */
function isArrayIndex(key: string): boolean {
  return /^(0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}

export function isRow(v: unknown): v is Row {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
