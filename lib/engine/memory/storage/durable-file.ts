import { mkdir, open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Row } from '../../types';
import { FileLock } from './file-lock';
import { decodeRecords, encodeRecord, type JournalOp, type JournalRecord } from './journal-record';
import { PRIVATE_FILE_MODE, readSnapshot, syncDirectory, writeSnapshot } from './snapshot-file';

/** What a durable file held at start: the snapshot's collections and the journal records after it. */
export interface LoadedState {
  collections: Map<string, Row[]>;
  records: JournalRecord[];
}

/** A point in the journal: the last record committed (`seq`) and where the journal ended after it (`bytes`). */
export interface JournalMark {
  seq: number;
  bytes: number;
}

/** A record waiting for its batch's sync. */
interface Queued {
  readonly buffer: Buffer;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

const noop = (): void => undefined;

/**
 * The persistence of a `memoryEngine({ file })`: a snapshot at `file` and an append-only journal at
 * `file.journal`. Every commit is one framed record, acknowledged once it is on disk (fdatasync). Commits that
 * arrive while a sync runs are written and synced together by the next one (group commit): with many writers one
 * sync acknowledges many records, none before its bytes are durable. Once the journal outgrows `snapshotBytes`,
 * the engine writes a snapshot of the state at a {@link mark} while commits go on appending ({@link writeSnapshot}),
 * then drops the records the snapshot holds ({@link dropJournalUpTo}).
 */
export class DurableFile {
  /** The last record on disk. */
  private seq = 0;
  /** The last record handed a number (on disk or queued). */
  private lastSeq = 0;
  private journalBytes = 0;
  /** Records appended, waiting for the next batch. */
  private queue: Queued[] = [];
  private flushScheduled = false;
  /** The journal's operations (batches, rewrites), one after the other; never rejects. */
  private io: Promise<void> = Promise.resolve();
  /** A failed batch: every later append fails too until {@link recovered} (they were made on the lost state). */
  private broken: unknown = null;
  /** After a failed snapshot: the journal size at which the next one is tried (0: at `snapshotBytes`). */
  private retryAtBytes = 0;

  private constructor(
    readonly path: string,
    private journal: FileHandle,
    private readonly snapshotBytes: number,
    private readonly lock: FileLock,
  ) {}

  /**
   * Creates the file's folder if needed, takes the file's exclusive lock (or throws `CR_DATA_FILE_LOCKED`), loads
   * the snapshot, reads the journal's valid prefix, cuts off a torn tail.
   */
  static async open(path: string, snapshotBytes: number): Promise<{ file: DurableFile; state: LoadedState }> {
    await mkdir(dirname(path), { recursive: true });
    const lock = await FileLock.take(path);
    try {
      return await DurableFile.load(path, snapshotBytes, lock);
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  private static async load(path: string, snapshotBytes: number, lock: FileLock): Promise<{ file: DurableFile; state: LoadedState }> {
    const snapshot = await readSnapshot(path);
    const journalPath = `${path}.journal`;
    // A journal rewrite that a crash interrupted: the journal itself is still whole.
    await rm(`${journalPath}.tmp`, { force: true });
    const buffer = await readFile(journalPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return Buffer.alloc(0);
      throw error;
    });
    const { records, validBytes } = decodeRecords(buffer);
    const handle = await open(journalPath, 'a+', PRIVATE_FILE_MODE);
    if (validBytes < buffer.length) {
      await handle.truncate(validBytes);
      await handle.sync();
    }
    await syncDirectory(dirname(journalPath));
    const file = new DurableFile(path, handle, snapshotBytes, lock);
    const snapshotSeq = snapshot?.seq ?? 0;
    const pending = records.filter((r) => r.seq > snapshotSeq);
    file.seq = records.reduce((max, r) => Math.max(max, r.seq), snapshotSeq);
    file.lastSeq = file.seq;
    file.journalBytes = validBytes;
    return { file, state: { collections: snapshot?.collections ?? new Map(), records: pending } };
  }

  /**
   * Appends one record (numbered now, in call order) to the next batch: when this resolves, the record and every
   * record appended before it survive a crash. When a batch fails (a full disk), its records and every record
   * appended after them reject, until the caller has undone them and called {@link recovered}.
   */
  commit(ops: JournalOp[]): Promise<void> {
    if (this.broken !== null) return Promise.reject(this.broken as Error);
    const buffer = encodeRecord({ seq: ++this.lastSeq, ops });
    const done = new Promise<void>((resolve, reject) => this.queue.push({ buffer, resolve, reject }));
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      void this.serial(() => this.flush());
    }
    return done;
  }

  /**
   * Resolves once every record appended so far is on disk; rejects when one of them failed. Called with no commit
   * in progress (the engine's step queue), it makes {@link mark} the state's own mark.
   */
  flushed(): Promise<void> {
    return this.io.then(() => {
      if (this.broken !== null) throw this.broken as Error;
    });
  }

  /** The records of a failed batch and those after it are undone: appends are accepted again. */
  recovered(): void {
    this.broken = null;
  }

  /** Writes and syncs every queued record as one batch, then acknowledges them in order. */
  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const buffer = batch.length === 1 ? batch[0]!.buffer : Buffer.concat(batch.map((q) => q.buffer));
    try {
      await this.journal.write(buffer);
      await this.journal.datasync();
    } catch (error) {
      // Cut a partly written batch off, so later records are not hidden behind it on replay.
      await this.journal.truncate(this.journalBytes).catch(noop);
      this.broken = error;
      this.lastSeq = this.seq;
      const failed = [...batch, ...this.queue];
      this.queue = [];
      for (const q of failed) q.reject(error);
      return;
    }
    this.seq += batch.length;
    this.journalBytes += buffer.length;
    for (const q of batch) q.resolve();
  }

  /** Runs `fn` after the journal's operations queued before it. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.io.then(fn);
    this.io = run.then(noop, noop);
    return run;
  }

  /** True when the journal holds records not yet in the snapshot. */
  get hasJournal(): boolean {
    return this.journalBytes > 0;
  }

  /** True once the journal has grown past the snapshot threshold (and, after a failure, by another threshold). */
  get wantsSnapshot(): boolean {
    return this.journalBytes >= Math.max(this.snapshotBytes, this.retryAtBytes);
  }

  /**
   * A snapshot failed (a full disk, a folder made read-only): the next one is tried once the journal has grown by
   * another `snapshotBytes`, not after every write (each try writes the whole state). The journal keeps every
   * write meanwhile.
   */
  snapshotFailed(): void {
    this.retryAtBytes = this.journalBytes + this.snapshotBytes;
  }

  /** Where the journal stands now: take it with the state a snapshot will hold, once {@link flushed} and while no commit is running. */
  mark(): JournalMark {
    return { seq: this.seq, bytes: this.journalBytes };
  }

  /**
   * Writes a snapshot of `collections`, the state as of `mark` (the rows are immutable, so a shallow copy of each
   * collection taken with the mark stays that state). Commits may go on meanwhile: they land in the journal,
   * after the mark.
   */
  async writeSnapshot(mark: JournalMark, collections: Iterable<[string, readonly Row[]]>): Promise<void> {
    await writeSnapshot(this.path, mark.seq, collections);
  }

  /**
   * Drops the journal records up to `mark` (a snapshot holds them now), keeping those committed since: they are
   * copied to `file.journal.tmp`, fsynced and renamed over the journal, between two batches (commits wait).
   * A crash at any point leaves a journal whose records after the snapshot's seq are whole.
   */
  dropJournalUpTo(mark: JournalMark): Promise<void> {
    return this.serial(() => this.dropUpTo(mark));
  }

  private async dropUpTo(mark: JournalMark): Promise<void> {
    const tailBytes = this.journalBytes - mark.bytes;
    if (tailBytes === 0) {
      await this.journal.truncate(0);
      await this.journal.sync();
      this.journalBytes = 0;
      this.retryAtBytes = 0;
      return;
    }
    const tail = Buffer.alloc(tailBytes);
    const { bytesRead } = await this.journal.read(tail, 0, tailBytes, mark.bytes);
    if (bytesRead !== tailBytes) throw new Error(`memory engine: the journal of ${this.path} is shorter than written`);
    // The new journal is written through the handle that commits use next: once renamed, it IS the journal.
    const journalPath = `${this.path}.journal`;
    await rm(`${journalPath}.tmp`, { force: true });
    const next = await open(`${journalPath}.tmp`, 'a+', PRIVATE_FILE_MODE);
    try {
      await next.write(tail);
      await next.sync();
      await rename(`${journalPath}.tmp`, journalPath);
    } catch (error) {
      await next.close();
      throw error;
    }
    const previous = this.journal;
    this.journal = next;
    this.journalBytes = tailBytes;
    this.retryAtBytes = 0;
    await previous.close();
    await syncDirectory(dirname(journalPath));
  }

  /** A snapshot of the whole state and an empty journal (at close: nothing may commit meanwhile). */
  compact(collections: Iterable<[string, readonly Row[]]>): Promise<void> {
    return this.serial(async () => {
      const mark = this.mark();
      await this.writeSnapshot(mark, collections);
      await this.dropUpTo(mark);
    });
  }

  async close(): Promise<void> {
    await this.io;
    await this.journal.close();
    await this.lock.release();
  }
}
