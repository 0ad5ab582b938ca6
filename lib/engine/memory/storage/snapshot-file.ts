import { open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Row } from '../../types';

const FORMAT = 'content-router-memory-snapshot';
const VERSION = 1;
const ROWS_PER_LINE = 1000;

/**
 * The mode of every file the engine creates (snapshot, journal, their temporary files): read and written by the
 * owner only. They hold every stored row, users' bcrypt hashes and live reset tokens included.
 */
export const PRIVATE_FILE_MODE = 0o600;

/** What a snapshot holds: every collection's rows in natural order and the last journal record it includes. */
export interface SnapshotState {
  seq: number;
  collections: Map<string, Row[]>;
}

/**
 * Writes a snapshot atomically: newline-delimited JSON to `<path>.tmp`, fsync, rename over `path`, fsync the
 * directory. A crash at any point leaves either the previous snapshot or the new one, never a mix.
 */
export async function writeSnapshot(path: string, seq: number, collections: Iterable<[string, readonly Row[]]>): Promise<void> {
  const tmp = `${path}.tmp`;
  const handle = await open(tmp, 'w', PRIVATE_FILE_MODE);
  try {
    let lines = 0;
    await handle.write(`${JSON.stringify({ format: FORMAT, version: VERSION, seq })}\n`);
    for (const [name, rows] of collections) {
      for (let i = 0; i === 0 || i < rows.length; i += ROWS_PER_LINE) {
        await handle.write(`${JSON.stringify({ c: name, rows: rows.slice(i, i + ROWS_PER_LINE) })}\n`);
        lines++;
      }
    }
    await handle.write(`${JSON.stringify({ end: true, lines })}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, path);
  await syncDirectory(dirname(path));
}

/**
 * Reads a snapshot written by {@link writeSnapshot}; `null` when there is none. Throws when it is damaged.
 * `removeTemporary: false` leaves `<path>.tmp` (a snapshot being written by a running app) alone.
 */
export async function readSnapshot(path: string, options: { removeTemporary?: boolean } = {}): Promise<SnapshotState | null> {
  // A snapshot a crash cut short; left alone by readers of a file an app may be writing.
  if (options.removeTemporary !== false) await rm(`${path}.tmp`, { force: true });
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const lines = text.split('\n').filter((l) => l.length > 0);
  const head = JSON.parse(lines[0] ?? '{}') as { format?: string; version?: number; seq?: number };
  if (head.format === FORMAT && head.version !== VERSION) {
    throw new Error(`memory engine: the snapshot ${path} has format version ${String(head.version)}; this release reads version ${VERSION} (upgrade content-router)`);
  }
  const tail = JSON.parse(lines[lines.length - 1] ?? '{}') as { end?: boolean; lines?: number };
  if (head.format !== FORMAT || typeof head.seq !== 'number' || !tail.end || tail.lines !== lines.length - 2) {
    throw new Error(`memory engine: the snapshot ${path} is damaged`);
  }
  const collections = new Map<string, Row[]>();
  for (const line of lines.slice(1, -1)) {
    const chunk = JSON.parse(line) as { c: string; rows: Row[] };
    const rows = collections.get(chunk.c) ?? [];
    for (const row of chunk.rows) rows.push(row);
    collections.set(chunk.c, rows);
  }
  return { seq: head.seq, collections };
}

/** fsyncs a directory so a rename in it is durable (a no-op where directories cannot be opened). */
export async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot fsync a directory; the rename is still atomic there.
  } finally {
    await handle?.close();
  }
}
