import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Row } from '../../types';
import { FileLock } from './file-lock';
import { decodeRecords, replayRecord, type JournalRecord } from './journal-record';
import { MemoryCollection } from './memory-collection';
import { PRIVATE_FILE_MODE, readSnapshot, writeSnapshot } from './snapshot-file';

/** What `verifyDataFile` found: enough to decide whether to repair, restore a backup, or carry on. */
export interface DataFileReport {
  file: string;
  /** `true` when the state loads whole: nothing torn, no gap, no key two rows share. */
  ok: boolean;
  snapshot: { seq: number; bytes: number } | null;
  journal: { bytes: number; records: number; validBytes: number; tornBytes: number; firstSeq: number | null; lastSeq: number | null };
  /** Rows per collection once the journal is replayed on the snapshot. */
  collections: Record<string, number>;
  /** Each finding in words, e.g. `journal: 41 bytes after record 812 are torn (a write cut short by a crash)`. */
  problems: string[];
}

/** A state read from a data file, with the journal's condition. */
interface LoadedFile {
  snapshotSeq: number;
  snapshotBytes: number | null;
  collections: Map<string, MemoryCollection>;
  records: JournalRecord[];
  journalBytes: number;
  validBytes: number;
  gap: string | null;
}

/**
 * Reads a durable memory engine's files (`file`, `file.journal`) WITHOUT the lock and without changing them, and
 * reports what they hold and what is wrong: a damaged snapshot, a torn journal tail, a gap between the snapshot
 * and the journal, rows that share an `_id`, an `id` or a version (documentId, locale, status), as two processes
 * writing one file leave. Safe on a file a running app holds (what it reads is a moment of it). A path where
 * neither the file nor its journal exists is a problem too (a mistyped path is not an empty store).
 *
 * @example
 * const report = await verifyDataFile('./data/content.db'); // { ok: true, collections: { articles: 149, ... } }
 */
export async function verifyDataFile(file: string): Promise<DataFileReport> {
  if (!(await dataFileExists(file))) {
    const journal = { bytes: 0, records: 0, validBytes: 0, tornBytes: 0, firstSeq: null, lastSeq: null };
    return { file, ok: false, snapshot: null, journal, collections: {}, problems: [noDataFile(file)] };
  }
  const problems: string[] = [];
  let loaded: LoadedFile | null = null;
  try {
    loaded = await loadFile(file);
  } catch (error) {
    problems.push(`snapshot: ${(error as Error).message}`);
  }
  const journalBytes = loaded?.journalBytes ?? (await stat(`${file}.journal`).then((s) => s.size, () => 0));
  const records = loaded?.records ?? [];
  const tornBytes = loaded ? loaded.journalBytes - loaded.validBytes : 0;
  if (loaded && tornBytes > 0) {
    const after = records.length ? `after record ${records[records.length - 1]!.seq}` : 'at the start';
    problems.push(`journal: ${tornBytes} bytes ${after} are torn (a write cut short by a crash: never acknowledged)`);
  }
  if (loaded?.gap) problems.push(loaded.gap);
  const collections: Record<string, number> = {};
  for (const [name, col] of loaded?.collections ?? []) {
    collections[name] = col.all().length;
    problems.push(...duplicates(name, col.all()));
  }
  return {
    file,
    ok: problems.length === 0,
    snapshot: loaded && loaded.snapshotBytes !== null ? { seq: loaded.snapshotSeq, bytes: loaded.snapshotBytes } : null,
    journal: {
      bytes: journalBytes,
      records: records.length,
      validBytes: loaded?.validBytes ?? 0,
      tornBytes,
      firstSeq: records[0]?.seq ?? null,
      lastSeq: records[records.length - 1]?.seq ?? null,
    },
    collections,
    problems,
  };
}

/**
 * Repairs what can be repaired without choosing between data: takes the file's lock (refused while an app holds
 * it), cuts a torn journal tail off, removes leftover temporary files, and compacts the rest into a fresh
 * snapshot with an empty journal. Duplicate keys and a damaged snapshot cannot be repaired (which row is right
 * is the owner's call): they are reported and the files are left as they were; restore a backup.
 * Returns the report of the file before the repair and what was done.
 *
 * @example
 * const { before, done } = await repairDataFile('./data/content.db');
 */
export async function repairDataFile(file: string): Promise<{ before: DataFileReport; done: string[] }> {
  if (!(await dataFileExists(file))) throw new Error(noDataFile(file));
  const lock = await FileLock.take(file);
  try {
    const before = await verifyDataFile(file);
    const unrepairable = before.problems.filter((p) => !p.startsWith('journal: '));
    if (unrepairable.length > 0) return { before, done: [] };
    const loaded = await loadFile(file);
    const done: string[] = [];
    if (before.journal.tornBytes > 0) done.push(`dropped the journal's torn tail (${before.journal.tornBytes} bytes, never acknowledged)`);
    const seq = loaded.records[loaded.records.length - 1]?.seq ?? loaded.snapshotSeq;
    await writeSnapshot(file, seq, imageOf(loaded));
    const journal = await open(`${file}.journal`, 'a+', PRIVATE_FILE_MODE);
    try {
      await journal.truncate(0);
      await journal.sync();
    } finally {
      await journal.close();
    }
    await rm(`${file}.journal.tmp`, { force: true });
    done.push(`compacted ${loaded.records.length} journal records into the snapshot (seq ${seq})`);
    return { before, done };
  } finally {
    await lock.release();
  }
}

/**
 * Copies a data file's state into `out`, a single snapshot file (no journal), while an app may be writing it:
 * the snapshot is read, then the journal, and the copy is taken only when the journal's records follow the
 * snapshot's without a gap (an app that snapshotted in between is caught, and the copy is read again).
 * Restore: stop the app, copy `out` over the data file, delete `<file>.journal`, start (docs/production.md).
 *
 * @example
 * await backupDataFile('./data/content.db', './backups/content-2026-11-25.db');
 */
export async function backupDataFile(file: string, out: string): Promise<{ seq: number; collections: Record<string, number> }> {
  if (!(await dataFileExists(file))) throw new Error(noDataFile(file));
  const target = resolve(out);
  if (target === resolve(file) || target.startsWith(`${resolve(file)}.`)) throw new Error(`${out} is one of the data file's own files; write the backup elsewhere`);
  await mkdir(dirname(out), { recursive: true }); // as memoryEngine({ file }) and engine.backup() create theirs
  for (let attempt = 0; attempt < 5; attempt++) {
    const loaded = await loadFile(file);
    // A snapshot written meanwhile may have emptied the journal of records the snapshot read lacks: read again.
    if (loaded.gap || (await snapshotSeq(file)) !== loaded.snapshotSeq) continue;
    const seq = loaded.records[loaded.records.length - 1]?.seq ?? loaded.snapshotSeq;
    await writeSnapshot(out, seq, imageOf(loaded));
    return { seq, collections: Object.fromEntries([...loaded.collections].map(([name, col]) => [name, col.all().length])) };
  }
  throw new Error(`backup: ${file} changed under every read (snapshots in a row); try again`);
}

/**
 * Whether `file` or its journal exists: a mistyped path has neither (and must not pass for an empty store).
 *
 * @example
 * if (!(await dataFileExists('./data/content.db'))) throw new Error('no data file');
 */
export async function dataFileExists(file: string): Promise<boolean> {
  const exists = (path: string): Promise<boolean> =>
    stat(path).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return false;
        throw error;
      },
    );
  return (await exists(file)) || (await exists(`${file}.journal`));
}

/** The message of a path where no data file is. */
export function noDataFile(file: string): string {
  return `no data file at ${file}: neither it nor ${file}.journal exists (check the path; memoryEngine({ file }) creates them at its first start)`;
}

async function loadFile(file: string): Promise<LoadedFile> {
  const snapshotBytes = await stat(file).then((s) => s.size, () => null);
  const snapshot = await readSnapshotReadOnly(file);
  const buffer = await readFile(`${file}.journal`).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return Buffer.alloc(0);
    throw error;
  });
  const { records, validBytes } = decodeRecords(buffer);
  const snapshotSeq = snapshot?.seq ?? 0;
  const pending = records.filter((r) => r.seq > snapshotSeq);
  const gap = pending.length > 0 && pending[0]!.seq !== snapshotSeq + 1 ? `journal: records ${snapshotSeq + 1} to ${pending[0]!.seq - 1} are missing after the snapshot` : null;
  const collections = new Map<string, MemoryCollection>();
  const collection = (name: string): MemoryCollection => {
    let col = collections.get(name);
    if (!col) collections.set(name, (col = new MemoryCollection(name)));
    return col;
  };
  for (const [name, rows] of snapshot?.collections ?? []) for (const row of rows) collection(name).insert(row);
  for (const record of pending) replayRecord(record, collection);
  return { snapshotSeq, snapshotBytes, collections, records: pending, journalBytes: buffer.length, validBytes, gap };
}

/** The seq of the snapshot at `file` now (its first line only), 0 when there is none. */
async function snapshotSeq(file: string): Promise<number> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return 0;
  }
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(256), 0, 256, 0);
    const head = buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0] ?? '';
    return (JSON.parse(head) as { seq?: number }).seq ?? -1;
  } catch {
    return -1;
  } finally {
    await handle.close();
  }
}

/** `readSnapshot` without its clean-up of a leftover `.tmp` (a running app may be writing it). */
async function readSnapshotReadOnly(file: string): Promise<Awaited<ReturnType<typeof readSnapshot>>> {
  return readSnapshot(file, { removeTemporary: false });
}

function imageOf(loaded: LoadedFile): [string, readonly Row[]][] {
  return [...loaded.collections].map(([name, col]) => [name, col.all()]);
}

/** Keys two rows share: `_id`, `id`, or a version (documentId, locale, _status). */
function duplicates(collection: string, rows: readonly Row[]): string[] {
  const found: string[] = [];
  const keys: [string, (row: Row) => unknown][] = [
    ['_id', (row) => row._id],
    ['id', (row) => row.id],
    ['documentId, locale, status', (row) => (row.documentId === undefined ? undefined : JSON.stringify([row.documentId, row.locale ?? null, row._status ?? null]))],
  ];
  for (const [label, keyOf] of keys) {
    const seen = new Set<unknown>();
    const shared = new Set<unknown>();
    for (const row of rows) {
      const key = keyOf(row);
      if (key === undefined || key === null) continue;
      if (seen.has(key)) shared.add(key);
      seen.add(key);
    }
    if (shared.size > 0) {
      const sample = [...shared].slice(0, 5).map((k) => JSON.stringify(k)).join(', ');
      found.push(`${collection}: ${shared.size} ${label} value(s) held by more than one row (${sample}${shared.size > 5 ? ', ...' : ''}): two processes wrote this file`);
    }
  }
  return found;
}
