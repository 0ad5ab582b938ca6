import createDebug from 'debug';
import type { Logger } from '../../errors/logger';
import type { CollectionSet, StateImage } from './storage/collection-set';
import { DurableFile } from './storage/durable-file';
import { replayRecord, type JournalOp } from './storage/journal-record';
import { StepQueue } from './storage/step-queue';
import type { UndoLog } from './storage/undo-log';

const debug = createDebug('content-router:engine:memory');

/**
 * The memory engine's write queue and the data file behind it: transactions, journal rewrites and backup images
 * run one at a time (storage/step-queue), each transaction's journal record is queued in the data file
 * (storage/durable-file) and its undo records kept until the record is on disk, and a snapshot is started once the
 * journal has grown enough. Without `file` it only orders the steps.
 *
 * @example
 * const queue = new WriteQueue({ file: './data/content.db' }, collections);
 * await queue.ready(); // the data file loaded into the collections
 * const durable = await queue.run(async () => queue.journal(ops, undo));
 */
export class WriteQueue {
  /** Transactions, journal rewrites and backup images, one at a time; reads wait while one runs. */
  private readonly steps = new StepQueue();
  /** Transactions applied whose journal record is not on disk yet, oldest first, with their undo records. */
  private readonly unsynced: { undo: UndoLog | null }[] = [];
  /** The step undoing the transactions of a failed journal batch, while it is queued or runs. */
  private recovering: Promise<void> | null = null;
  /** A snapshot being written in the background (reads and writes go on meanwhile). */
  private snapshotting: Promise<void> | null = null;
  private loading: Promise<void> | null = null;
  private file: DurableFile | null = null;
  /** Where a failed snapshot is reported: the router's logger once `init` got it. */
  private logger: Pick<Logger, 'error'> = { error: (message) => debug(message) };

  constructor(
    private readonly options: { file?: string; snapshotBytes?: number },
    private readonly collections: CollectionSet,
  ) {}

  /** Reports failed snapshots to `logger` from now on. */
  reportTo(logger: Pick<Logger, 'error'>): void {
    this.logger = logger;
  }

  /** Runs `fn` alone: after the steps queued before it, before those queued after it. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return this.steps.run(fn);
  }

  /** Loads the file once; a failed load is forgotten, so that the next call (a retried `init`) tries again. */
  ready(): Promise<void> {
    if (!this.loading) {
      const attempt = this.load();
      this.loading = attempt;
      attempt.catch(() => {
        if (this.loading === attempt) this.loading = null;
      });
    }
    return this.loading;
  }

  private async load(): Promise<void> {
    if (!this.options.file) return;
    const { file, state } = await DurableFile.open(this.options.file, this.options.snapshotBytes ?? 16 * 1024 * 1024);
    for (const [name, rows] of state.collections) for (const row of rows) this.collections.get(name).insert(row);
    for (const record of state.records) replayRecord(record, (name) => this.collections.get(name));
    this.file = file;
  }

  /**
   * Queues a transaction's record in the journal (none without a file: null). Until it is on disk the
   * transaction's undo records are kept: if its batch fails (a full disk), it and every transaction applied after
   * it (their records fail too, being made on its state) are undone, newest first, in a step of their own, before
   * any other write runs.
   */
  journal(ops: JournalOp[], undo: UndoLog | null): Promise<void> | null {
    if (!this.file) return null;
    const entry = { undo };
    this.unsynced.push(entry);
    const durable = this.file.commit(ops);
    durable.then(
      () => {
        const at = this.unsynced.indexOf(entry);
        if (at >= 0) this.unsynced.splice(at, 1);
      },
      () => this.recover(),
    );
    return durable;
  }

  /** After a failed batch: undoes every transaction whose record is not on disk, newest first (see journal). */
  private recover(): void {
    if (this.recovering) return;
    this.recovering = this.steps
      .run(async () => {
        for (let i = this.unsynced.length - 1; i >= 0; i--) this.unsynced[i]!.undo?.rollbackTo(0);
        this.unsynced.length = 0;
        this.file?.recovered();
      })
      .finally(() => {
        this.recovering = null;
      });
  }

  /** Resolves once every transaction applied so far is on disk, or undone after a failed batch. */
  private async synced(): Promise<void> {
    await this.file?.flushed().catch(() => undefined);
    await this.recovering;
  }

  /**
   * Waits until the running step has settled (see the engine's `readable`). While a journal batch is being synced,
   * a read yields to the event loop once: reads in a loop would otherwise run on microtasks only and starve the
   * sync's completion (the writers' acknowledgements) for ever.
   */
  async idle(): Promise<void> {
    if (this.unsynced.length > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    await this.steps.idle();
  }

  /**
   * Starts a snapshot once the journal is over `snapshotBytes`, called after a transaction: the state and the
   * journal's mark are taken at once in a step of their own, once every record queued is on disk (rows are
   * immutable: a shallow copy of each collection is that state); the file is written in the background while reads
   * and writes go on; the journal records the snapshot holds are dropped between two later transactions.
   */
  snapshotIfDue(): void {
    const file = this.file;
    if (!file || this.snapshotting || !file.wantsSnapshot) return;
    this.snapshotting = (async () => {
      let mark = file.mark();
      let image: StateImage = [];
      await this.steps.run(async () => {
        await file.flushed();
        mark = file.mark();
        image = this.collections.image();
      });
      await file.writeSnapshot(mark, image);
      await this.steps.run(() => file.dropJournalUpTo(mark));
    })()
      .catch((e: unknown) => {
        file.snapshotFailed();
        this.logger.error(
          `content-router: the snapshot of ${file.path} failed (${e instanceof Error ? e.message : String(e)}); every write is still in ` +
            'the journal, which grows until a snapshot succeeds; the next one is tried after another snapshotBytes of writes',
        );
      })
      .finally(() => {
        this.snapshotting = null;
      });
  }

  /**
   * A consistent copy of the whole state for a backup, taken between two writes once every transaction applied so
   * far is on disk, with the last journal record it includes (`seq`, 0 without a file).
   */
  async backupImage(): Promise<{ seq: number; image: StateImage }> {
    let image: StateImage = [];
    let seq = 0;
    await this.synced();
    await this.steps.run(async () => {
      await this.file?.flushed();
      image = this.collections.image();
      seq = this.file?.mark().seq ?? 0;
    });
    return { seq, image };
  }

  /** Waits for the writes in flight and a running snapshot, writes a last snapshot, empties the journal. */
  async close(): Promise<void> {
    await this.steps.settled();
    await this.synced();
    await this.steps.settled();
    await this.snapshotting;
    const file = this.file;
    if (!file) return;
    await this.steps.run(async () => {
      await file.flushed();
      if (file.hasJournal) await file.compact(this.collections.image());
    });
    await file.close();
    this.file = null;
  }
}
