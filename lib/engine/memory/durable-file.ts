import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Row } from '../types';
import { decodeRecords, encodeRecord, type JournalOp, type JournalRecord } from './journal-record';
import { readSnapshot, syncDirectory, writeSnapshot } from './snapshot-file';

/** What a durable file held at start: the snapshot's collections and the journal records after it. */
export interface LoadedState {
  collections: Map<string, Row[]>;
  records: JournalRecord[];
}

/**
 * The persistence of a `memoryEngine({ file })`: a snapshot at `file` and an append-only journal at
 * `file.journal`. Every commit appends one framed record and fsyncs before it is acknowledged; once the journal
 * outgrows `snapshotBytes`, a new snapshot is written atomically and the journal is emptied.
 */
export class DurableFile {
  private seq = 0;
  private journalBytes = 0;

  private constructor(
    readonly path: string,
    private readonly journal: FileHandle,
    private readonly snapshotBytes: number,
  ) {}

  /** Creates the file's folder if needed, loads the snapshot, reads the journal's valid prefix, cuts off a torn tail. */
  static async open(path: string, snapshotBytes: number): Promise<{ file: DurableFile; state: LoadedState }> {
    await mkdir(dirname(path), { recursive: true });
    const snapshot = await readSnapshot(path);
    const journalPath = `${path}.journal`;
    const buffer = await readFile(journalPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return Buffer.alloc(0);
      throw error;
    });
    const { records, validBytes } = decodeRecords(buffer);
    const handle = await open(journalPath, 'a+');
    if (validBytes < buffer.length) {
      await handle.truncate(validBytes);
      await handle.sync();
    }
    await syncDirectory(dirname(journalPath));
    const file = new DurableFile(path, handle, snapshotBytes);
    const snapshotSeq = snapshot?.seq ?? 0;
    const pending = records.filter((r) => r.seq > snapshotSeq);
    file.seq = records.reduce((max, r) => Math.max(max, r.seq), snapshotSeq);
    file.journalBytes = validBytes;
    return { file, state: { collections: snapshot?.collections ?? new Map(), records: pending } };
  }

  /** Appends one record and fsyncs it: when this resolves, the write survives a crash. */
  async commit(ops: JournalOp[]): Promise<void> {
    const buffer = encodeRecord({ seq: this.seq + 1, ops });
    try {
      await this.journal.write(buffer);
      await this.journal.datasync();
    } catch (error) {
      // Cut a partly written record off, so later records are not hidden behind it on replay.
      await this.journal.truncate(this.journalBytes).catch(() => undefined);
      throw error;
    }
    this.seq++;
    this.journalBytes += buffer.length;
  }

  /** True when the journal holds records not yet in the snapshot. */
  get hasJournal(): boolean {
    return this.journalBytes > 0;
  }

  /** True once the journal has grown past the snapshot threshold. */
  get wantsSnapshot(): boolean {
    return this.journalBytes >= this.snapshotBytes;
  }

  /** Writes a snapshot of `collections` (the state after the last commit) and empties the journal. */
  async snapshot(collections: Iterable<[string, readonly Row[]]>): Promise<void> {
    await writeSnapshot(this.path, this.seq, collections);
    await this.journal.truncate(0);
    await this.journal.sync();
    this.journalBytes = 0;
  }

  async close(): Promise<void> {
    await this.journal.close();
  }
}
