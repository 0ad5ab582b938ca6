import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import createDebug from 'debug';
import { Query, update as mingoUpdate } from 'mingo';
import type { Logger } from '../../errors/logger';
import type { AggregateOptions, Engine, EngineContext, EngineStats, Filter, FindOptions, IndexSpec, Pipeline, Row, Update } from '../types';
import { deepCopy } from './storage/deep-copy';
import { assertDocumentSizes, checkDocumentLimit } from './storage/document-size';
import { DurableFile } from './storage/durable-file';
import { createFastLookup } from './execution/fast-paths/mingo-indexed-lookup';
import { replayRecord, type JournalOp } from './storage/journal-record';
import { MemoryCollection } from './storage/memory-collection';
import { checkMemoryEngineOptions, warnIfMemoryOnly, type MemoryEngineOptions } from './memory-engine-options';
import { createContext } from './semantics/mingo-context';
import { compileRowTest } from './execution/match-rows';
import { createObjectId } from './storage/object-id';
import { meteredLookup, withRowMeter } from './execution/row-meter';
import { manualLookup } from './semantics/equality-lookup';
import { runOwned, type PipelineRuntime } from './execution/run-pipeline';
import { selectCandidates } from './storage/select-candidates';
import { StepQueue } from './storage/step-queue';
import { UndoLog } from './storage/undo-log';
import { writeSnapshot } from './storage/snapshot-file';
import { orderRows } from './execution/sort-rows';

const debug = createDebug('content-router:engine:memory');

export type { MemoryEngineOptions } from './memory-engine-options';

/** The collection holding the integer id sequences: `{ _id: <collection>, seq }`. */
export const COUNTERS = 'counters';

interface TxState {
  /** How to take back the transaction's writes (not the counters'), newest first. */
  undo: UndoLog;
  ops: JournalOp[];
  /** Counter bumps: journaled even when the transaction rolls back (ids are never handed out twice). */
  kept: JournalOp[];
}


/**
 * The embedded engine: collections live in process memory and mingo runs the very same aggregation pipelines
 * that MongoDB would, with hash indexes for the `$lookup` shapes the pipeline compiler emits and for equality on
 * `id` / `documentId`. Writes are serialized; a transaction that throws is rolled back. With `file`, every
 * acknowledged write is fsynced to a journal first.
 *
 * @example
 * createContentRouter({ contentTypes, engine: memoryEngine({ file: './data/content.db' }) })
 * createContentRouter({ contentTypes, engine: memoryEngine({ ephemeral: true }) }) // tests: no warning
 */
export function memoryEngine(options: MemoryEngineOptions = {}): EmbeddedEngine {
  checkMemoryEngineOptions(options);
  return new MemoryEngine(options);
}

/**
 * The fast-paths-off proof's entry (tests; not part of the Engine port): `aggregate` on a memory engine with each
 * set of fast paths in `variants` switched off (execution/registry's names), every variant on the same state.
 *
 * @example
 * const [fast, general] = await aggregateVariants(engine, 'articles', pipeline, {}, [[], FAST_PATH_NAMES]);
 */
export function aggregateVariants(engine: Engine, collection: string, pipeline: Pipeline, options: AggregateOptions, variants: readonly (readonly string[])[]): Promise<(Row[] | Error)[]> {
  if (!(engine instanceof MemoryEngine)) throw new TypeError('aggregateVariants: not a memory engine');
  return engine.aggregateVariants(collection, pipeline, options, variants);
}

/** What a backup holds: the last journal record it includes and the rows per collection. */
export interface BackupResult {
  seq: number;
  collections: Record<string, number>;
}

/** The engine `memoryEngine()` returns: the Engine port, and a backup of a running engine. */
export interface EmbeddedEngine extends Engine {
  /**
   * Writes a consistent copy of the whole state to `path` (a snapshot file: restore it by copying it over the data
   * file, with no `.journal` beside it, while the app is stopped; see docs/production.md). The state is taken
   * between two writes; reads and writes go on while the file is written.
   *
   * @example
   * await engine.backup(`./backups/content-${new Date().toISOString().slice(0, 10)}.db`);
   */
  backup(path: string): Promise<BackupResult>;
}

class MemoryEngine implements EmbeddedEngine {
  readonly name = 'memory';
  /** An import of up to this many bytes of JSON lines runs in one transaction, journaled as one record (Engine). */
  readonly bulkTransactionBytes = 128 * 1024 * 1024;
  readonly stats: EngineStats = { aggregate: 0, find: 0, write: 0 };
  private readonly collections = new Map<string, MemoryCollection>();
  private readonly txScope = new AsyncLocalStorage<TxState>();
  private readonly mingoOptions;
  /**
   * The options of a mingo `Query` (a find's or a write's filter, a projection): no `context`. mingo's `Query`
   * merges a given context into its default one on every construction (a copy of every operator table: about
   * 0.1 ms per write's filter), and on a clash the default operators win, so for a query the result is mingo's
   * default operators either way.
   */
  private readonly queryOptions;
  private readonly runtime: PipelineRuntime;
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
  private warned = false;
  /** Where a failed snapshot is reported: the router's logger once `init` got it. */
  private logger: Pick<Logger, 'error'> = { error: (message) => debug(message) };

  constructor(private readonly options: MemoryEngineOptions) {
    checkDocumentLimit(options.maxDocumentBytes);
    this.mingoOptions = {
      idKey: '_id',
      scriptEnabled: false,
      context: createContext(meteredLookup(createFastLookup((name) => this.collections.get(name)))),
      collectionResolver: (name: string) => this.collection(name).all() as Row[],
    };
    this.queryOptions = { idKey: '_id', scriptEnabled: false, collectionResolver: this.mingoOptions.collectionResolver };
    this.runtime = {
      options: this.mingoOptions,
      generalOptions: { ...this.mingoOptions, context: createContext(meteredLookup(manualLookup)) },
      disabled: new Set(options.disabledFastPaths ?? []),
      collection: (name) => this.collection(name),
    };
  }

  async init(collections: readonly { name: string; indexes: readonly IndexSpec[] }[], context?: EngineContext): Promise<void> {
    if (context) this.logger = context.logger;
    this.warnIfMemoryOnly();
    await this.ready();
    for (const c of collections) this.collection(c.name).setIndexes(c.indexes);
  }

  async aggregate(collection: string, pipeline: Pipeline, options: AggregateOptions = {}): Promise<Row[]> {
    await this.readable();
    this.stats.aggregate++;
    return this.runAggregate(collection, pipeline, options, this.runtime.disabled);
  }

  /**
   * One aggregate with each set of fast paths of `variants` switched off (on top of the engine's own), all run
   * between the same two writes; a variant that throws gives its error. The fast-paths-off proof compares them
   * (see {@link aggregateVariants}).
   */
  async aggregateVariants(collection: string, pipeline: Pipeline, options: AggregateOptions, variants: readonly (readonly string[])[]): Promise<(Row[] | Error)[]> {
    await this.readable();
    this.stats.aggregate++;
    return variants.map((off) => {
      try {
        return this.runAggregate(collection, pipeline, off.length === 0 ? options : { ...options, onRow: undefined }, new Set([...this.runtime.disabled, ...off]));
      } catch (error) {
        return error as Error;
      }
    });
  }

  private runAggregate(collection: string, pipeline: Pipeline, options: AggregateOptions, disabled: ReadonlySet<string>): Row[] {
    const readOnly = options.readOnly === true;
    const result = withRowMeter(options.maxJoinedRows, () => runOwned(this.runtime, this.collection(collection), pipeline, readOnly, disabled));
    if (this.options.maxDocumentBytes !== undefined) assertDocumentSizes(collection, result.rows, this.options.maxDocumentBytes);
    if (options.onRow) for (const row of result.rows) options.onRow(row);
    if (result.owned) return result.rows;
    return readOnly ? result.rows.slice() : deepCopy(result.rows);
  }

  async find(collection: string, filter: Filter, options: FindOptions = {}): Promise<Row[]> {
    await this.readable();
    this.stats.find++;
    const source = this.matching(this.collection(collection), filter);
    // Sorted before the projection, in MongoDB's order (sort-rows), as a find's sort is.
    const sorted = options.sort ? orderRows(source, options.sort, this.mingoOptions) : source;
    let cursor = new Query({}, this.queryOptions).find<Row>(sorted, options.projection);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit) cursor = cursor.limit(options.limit);
    return deepCopy(cursor.all());
  }

  async count(collection: string, filter: Filter): Promise<number> {
    await this.readable();
    this.stats.find++;
    return this.matching(this.collection(collection), filter).length;
  }

  async insertMany(collection: string, rows: readonly Row[]): Promise<void> {
    await this.write(collection, (col, undo) => {
      const stored = rows.map((r) => {
        const { _id, ...fields } = deepCopy(r);
        const row: Row = { _id: _id ?? createObjectId(), ...fields };
        col.insert(row, undo);
        return row;
      });
      return [{ op: 'put', c: collection, rows: stored }];
    });
  }

  async updateMany(collection: string, filter: Filter, update: Update): Promise<number> {
    let matched = 0;
    await this.write(collection, (col, undo) => {
      const prevs = this.matching(col, filter);
      matched = prevs.length;
      const nexts = prevs.map((prev) => {
        const next = deepCopy(prev);
        mingoUpdate(next, update as never, undefined, undefined, { cloneMode: 'deep', queryOptions: this.queryOptions });
        next._id = prev._id;
        col.replace(prev, next, undo);
        return next;
      });
      return nexts.length ? [{ op: 'put', c: collection, rows: nexts }] : [];
    });
    return matched;
  }

  async replaceOne(collection: string, filter: Filter, row: Row): Promise<number> {
    let matched = 0;
    await this.write(collection, (col, undo) => {
      const prev = this.matching(col, filter)[0];
      if (!prev) return [];
      matched = 1;
      const next = { ...deepCopy(row), _id: prev._id };
      col.replace(prev, next, undo);
      return [{ op: 'put', c: collection, rows: [next] }];
    });
    return matched;
  }

  async deleteMany(collection: string, filter: Filter): Promise<number> {
    let removed = 0;
    await this.write(collection, (col, undo) => {
      const rows = this.matching(col, filter);
      removed = rows.length;
      col.remove(new Set(rows), undo);
      return rows.length ? [{ op: 'del', c: collection, ids: rows.map((r) => r._id) }] : [];
    });
    return removed;
  }

  /**
   * Like MongoDB's engine, which allocates ids outside the caller's transaction: a rollback does not give the
   * ids back (gaps), so both engines hand out the same ids for the same history.
   */
  async nextId(collection: string, count = 1): Promise<number> {
    let seq = 0;
    await this.write(COUNTERS, (col) => {
      const prev = col.getById(collection);
      seq = (typeof prev?.seq === 'number' ? prev.seq : 0) + count;
      const next = { _id: collection, seq };
      if (prev) col.replace(prev, next);
      else col.insert(next);
      return [{ op: 'put', c: COUNTERS, rows: [next] }];
    }, { count: false, keep: true });
    return seq - count + 1;
  }

  /**
   * Runs `fn` alone (the step queue) and acknowledges it once its journal record is on disk. The queue is free
   * again as soon as `fn`'s writes are applied: the next transaction runs while this one's record is synced, and
   * the records of the transactions that arrive meanwhile are synced together (group commit, storage/durable-file).
   */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.txScope.getStore()) return fn();
    await this.ready();
    try {
      const { result, durable } = await this.steps.run(() => this.runTransaction(fn));
      if (durable) await durable;
      return result;
    } finally {
      this.snapshotIfDue();
    }
  }

  async backup(path: string): Promise<BackupResult> {
    await this.ready();
    const target = resolve(path);
    const own = this.options.file === undefined ? undefined : resolve(this.options.file);
    if (own !== undefined && (target === own || target.startsWith(`${own}.`))) {
      throw new Error(`backup: ${path} is the engine's own data file; write the backup elsewhere`);
    }
    let image: [string, readonly Row[]][] = [];
    let seq = 0;
    await this.synced();
    await this.steps.run(async () => {
      await this.file?.flushed();
      image = this.image();
      seq = this.file?.mark().seq ?? 0;
    });
    await mkdir(dirname(target), { recursive: true });
    await writeSnapshot(target, seq, image);
    return { seq, collections: Object.fromEntries(image.map(([name, rows]) => [name, rows.length])) };
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
      if (file.hasJournal) await file.compact(this.image());
    });
    await file.close();
    this.file = null;
  }

  /**
   * Applies `fn`'s writes (taken back by their undo records if it throws) and queues its journal record; `durable`
   * resolves once the record is on disk. A rolled-back transaction still journals its counter bumps.
   */
  private async runTransaction<T>(fn: () => Promise<T>): Promise<{ result: T; durable: Promise<void> | null }> {
    const tx: TxState = { undo: new UndoLog(), ops: [], kept: [] };
    try {
      const result = await this.txScope.run(tx, fn);
      return { result, durable: tx.ops.length && this.file ? this.journal(tx.ops, tx.undo) : null };
    } catch (error) {
      tx.undo.rollbackTo(0);
      if (tx.kept.length && this.file) this.journal(tx.kept, null).catch((e: unknown) => debug('counter journal failed: %O', e));
      throw error;
    }
  }

  /**
   * Queues a transaction's record in the journal. Until it is on disk the transaction's undo records are kept: if
   * its batch fails (a full disk), it and every transaction applied after it (their records fail too, being made on
   * its state) are undone, newest first, in a step of their own, before any other write runs.
   */
  private journal(ops: JournalOp[], undo: UndoLog | null): Promise<void> {
    const entry = { undo };
    this.unsynced.push(entry);
    const durable = this.file!.commit(ops);
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
   * Starts a snapshot once the journal is over `snapshotBytes`, called after a transaction: the state and the
   * journal's mark are taken at once in a step of their own, once every record queued is on disk (rows are
   * immutable: a shallow copy of each collection is that state); the file is written in the background while reads
   * and writes go on; the journal records the snapshot holds are dropped between two later transactions.
   */
  private snapshotIfDue(): void {
    const file = this.file;
    if (!file || this.snapshotting || !file.wantsSnapshot) return;
    this.snapshotting = (async () => {
      let mark = file.mark();
      let image: [string, readonly Row[]][] = [];
      await this.steps.run(async () => {
        await file.flushed();
        mark = file.mark();
        image = this.image();
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
   * Applies one write inside the current transaction, or in a transaction of its own. `count`: counted in
   * `stats.write`; `keep`: survives a rollback of the transaction (counters). A write that throws part way (a
   * unique clash on the third row of an `updateMany`) is taken back whole before the error reaches the caller, so
   * a transaction that catches it and goes on holds exactly the writes it journals.
   */
  private async write(collection: string, apply: (col: MemoryCollection, undo: UndoLog | undefined) => JournalOp[], options: { count?: boolean; keep?: boolean } = {}): Promise<void> {
    await this.ready();
    if (options.count !== false) this.stats.write++;
    const run = async (): Promise<void> => {
      const tx = this.txScope.getStore()!;
      const col = this.collection(collection);
      const undo = options.keep ? undefined : tx.undo;
      const mark = tx.undo.mark();
      let ops: JournalOp[];
      try {
        ops = apply(col, undo);
      } catch (error) {
        tx.undo.rollbackTo(mark);
        throw error;
      }
      tx.ops.push(...ops);
      if (options.keep) tx.kept.push(...ops);
    };
    if (this.txScope.getStore()) return run();
    return this.transaction(run);
  }

  /**
   * Waits, outside a transaction, until the running step has settled: reads never see a transaction's writes
   * before it has ended. They may see a transaction that ended and whose journal record is being synced (not yet
   * acknowledged to its caller), as MongoDB's read concern "local" may: "other clients ... can see the result of a
   * write operation before the write operation is acknowledged to the issuing client"
   * (https://www.mongodb.com/docs/manual/core/read-isolation-consistency-recency/).
   */
  private async readable(): Promise<void> {
    await this.ready();
    if (this.txScope.getStore()) return;
    // While a journal batch is being synced, a read yields to the event loop once: reads in a loop would otherwise
    // run on microtasks only and starve the sync's completion (the writers' acknowledgements) for ever.
    if (this.unsynced.length > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    await this.steps.idle();
  }


  /** The rows matching `filter`: index-selected candidates tested by match-rows (mingo's answers, `$in` by a set). */
  private matching(col: MemoryCollection, filter: Filter): Row[] {
    return selectCandidates(col, filter).filter(compileRowTest(filter, this.queryOptions));
  }

  private collection(name: string): MemoryCollection {
    let col = this.collections.get(name);
    if (!col) {
      col = new MemoryCollection(name);
      this.collections.set(name, col);
    }
    return col;
  }

  /** Every collection's rows as they are now, unchanged by later writes (rows are immutable, arrays copied). */
  private image(): [string, readonly Row[]][] {
    return [...this.collections].map(([name, col]) => [name, col.save()]);
  }

  /** Once per engine, at startup: a host that forgot `engine` (or `file`) would lose everything on restart. */
  private warnIfMemoryOnly(): void {
    if (!this.warned) warnIfMemoryOnly(this.options);
    this.warned = true;
  }

  /** Loads the file once; a failed load is forgotten, so that the next call (a retried `init`) tries again. */
  private ready(): Promise<void> {
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
    for (const [name, rows] of state.collections) for (const row of rows) this.collection(name).insert(row);
    for (const record of state.records) replayRecord(record, (name) => this.collection(name));
    this.file = file;
  }

  /** For the start-up line: `memory (file .data/content.db)`, or `memory (in memory only)`. */
  describe(): string {
    return this.options.file ? `memory (file ${this.options.file})` : 'memory (in memory only)';
  }
}
