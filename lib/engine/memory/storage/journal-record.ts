import { crc32 } from 'node:zlib';
import type { Row } from '../../types';
import type { MemoryCollection } from './memory-collection';

/** One physical change: rows put (replaced by `_id`, or appended) or rows deleted by `_id`. */
export type JournalOp = { op: 'put'; c: string; rows: Row[] } | { op: 'del'; c: string; ids: unknown[] };

/** One committed write (a single engine call or a whole transaction), numbered from 1. */
export interface JournalRecord {
  seq: number;
  ops: JournalOp[];
}

/** Bytes before each payload: payload length (uint32 LE) then CRC-32 of the payload (uint32 LE). */
export const RECORD_HEADER_BYTES = 8;

/**
 * Frames a record as `[length][crc32][JSON payload]`, so a torn or corrupt tail is detectable on replay.
 *
 * @example
 * await handle.write(encodeRecord({ seq: 1, ops: [] }))
 */
export function encodeRecord(record: JournalRecord): Buffer {
  const payload = Buffer.from(JSON.stringify(record), 'utf8');
  const header = Buffer.alloc(RECORD_HEADER_BYTES);
  header.writeUInt32LE(payload.length, 0);
  header.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([header, payload]);
}

/**
 * Reads the valid prefix of a journal: every complete record whose checksum and JSON are sound, up to the
 * first one that is not (a write torn by a crash). `validBytes` is where that prefix ends.
 *
 * @example
 * const { records, validBytes } = decodeRecords(await readFile(path))
 */
export function decodeRecords(buffer: Buffer): { records: JournalRecord[]; validBytes: number } {
  const records: JournalRecord[] = [];
  let offset = 0;
  while (offset + RECORD_HEADER_BYTES <= buffer.length) {
    const length = buffer.readUInt32LE(offset);
    const checksum = buffer.readUInt32LE(offset + 4);
    const end = offset + RECORD_HEADER_BYTES + length;
    if (end > buffer.length) break;
    const payload = buffer.subarray(offset + RECORD_HEADER_BYTES, end);
    if (crc32(payload) !== checksum) break;
    const record = parseRecord(payload);
    if (!record) break;
    records.push(record);
    offset = end;
  }
  return { records, validBytes: offset };
}

function parseRecord(payload: Buffer): JournalRecord | null {
  try {
    const value = JSON.parse(payload.toString('utf8')) as JournalRecord;
    return typeof value.seq === 'number' && Array.isArray(value.ops) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Re-applies a committed record to the collections: `put` replaces the row with the same `_id` in place or
 * appends it, `del` removes rows by `_id`. Applied in order on top of the snapshot it follows, it rebuilds
 * exactly the state that was acknowledged.
 */
export function replayRecord(record: JournalRecord, collection: (name: string) => MemoryCollection): void {
  for (const op of record.ops) {
    const col = collection(op.c);
    if (op.op === 'del') {
      col.remove(new Set(op.ids.map((id) => col.getById(id)).filter((r): r is Row => r !== undefined)));
      continue;
    }
    for (const row of op.rows) {
      const prev = col.getById(row._id);
      if (prev) col.replace(prev, row);
      else col.insert(row);
    }
  }
}
