import { Query, update as mingoUpdate } from 'mingo';
import type { AggregateOptions, Engine, EngineContext, EngineStats, Filter, FindOptions, IndexSpec, Pipeline, Row, Update } from '../types';
import { deepCopy } from './storage/deep-copy';
import { assertDocumentSizes, checkDocumentLimit } from './storage/document-size';
import { createFastLookup } from './execution/fast-paths/mingo-indexed-lookup';
import type { JournalOp } from './storage/journal-record';
import type { MemoryCollection } from './storage/memory-collection';
import { CollectionSet } from './storage/collection-set';
import { checkMemoryEngineOptions, warnIfMemoryOnly, type MemoryEngineOptions } from './memory-engine-options';
import { createContext } from './semantics/mingo-context';
import { compileRowTest } from './execution/match-rows';
import { createObjectId } from './storage/object-id';
import { meteredLookup, withRowMeter } from './execution/row-meter';
import { manualLookup } from './semantics/equality-lookup';
import { runOwned, type PipelineRuntime } from './execution/run-pipeline';
import { selectCandidates } from './storage/select-candidates';
import type { UndoLog } from './storage/undo-log';
import { orderRows } from './execution/sort-rows';
import { TransactionRunner } from './transaction-runner';
import { WriteQueue } from './write-queue';
import { writeBackup, type BackupResult } from './write-backup';

export type { MemoryEngineOptions } from './memory-engine-options';
export type { BackupResult } from './write-backup';

/** The collection holding the integer id sequences: `{ _id: <collection>, seq }`. */
export const COUNTERS = 'counters';

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

/**
 * The Engine port on the memory engine's parts: the collections (storage/collection-set), the pipeline runtime
 * (execution/), transactions (transaction-runner) run one at a time by the write queue and journaled in the data
 * file (write-queue), backups (write-backup).
 */
class MemoryEngine implements EmbeddedEngine {
  readonly name = 'memory';
  /** An import of up to this many bytes of JSON lines runs in one transaction, journaled as one record (Engine). */
  readonly bulkTransactionBytes = 128 * 1024 * 1024;
  readonly stats: EngineStats = { aggregate: 0, find: 0, write: 0 };
  private readonly collections = new CollectionSet();
  private readonly mingoOptions;
  /**
   * The options of a mingo `Query` (a find's or a write's filter, a projection): no `context`. mingo's `Query`
   * merges a given context into its default one on every construction (a copy of every operator table: about
   * 0.1 ms per write's filter), and on a clash the default operators win, so for a query the result is mingo's
   * default operators either way.
   */
  private readonly queryOptions;
  private readonly runtime: PipelineRuntime;
  private readonly queue: WriteQueue;
  private readonly transactions: TransactionRunner;
  private warned = false;

  constructor(private readonly options: MemoryEngineOptions) {
    checkDocumentLimit(options.maxDocumentBytes);
    this.mingoOptions = {
      idKey: '_id',
      scriptEnabled: false,
      context: createContext(meteredLookup(createFastLookup((name) => this.collections.find(name)))),
      collectionResolver: (name: string) => this.collections.get(name).all() as Row[],
    };
    this.queryOptions = { idKey: '_id', scriptEnabled: false, collectionResolver: this.mingoOptions.collectionResolver };
    this.runtime = {
      options: this.mingoOptions,
      generalOptions: { ...this.mingoOptions, context: createContext(meteredLookup(manualLookup)) },
      disabled: new Set(options.disabledFastPaths ?? []),
      collection: (name) => this.collections.get(name),
    };
    this.queue = new WriteQueue(options, this.collections);
    this.transactions = new TransactionRunner(this.queue);
  }

  async init(collections: readonly { name: string; indexes: readonly IndexSpec[] }[], context?: EngineContext): Promise<void> {
    if (context) this.queue.reportTo(context.logger);
    this.warnIfMemoryOnly();
    await this.ready();
    for (const c of collections) this.collections.get(c.name).setIndexes(c.indexes);
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
    const result = withRowMeter(options.maxJoinedRows, () => runOwned(this.runtime, this.collections.get(collection), pipeline, readOnly, disabled));
    if (this.options.maxDocumentBytes !== undefined) assertDocumentSizes(collection, result.rows, this.options.maxDocumentBytes);
    if (options.onRow) for (const row of result.rows) options.onRow(row);
    if (result.owned) return result.rows;
    return readOnly ? result.rows.slice() : deepCopy(result.rows);
  }

  async find(collection: string, filter: Filter, options: FindOptions = {}): Promise<Row[]> {
    await this.readable();
    this.stats.find++;
    const source = this.matching(this.collections.get(collection), filter);
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
    return this.matching(this.collections.get(collection), filter).length;
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

  /** One at a time, acknowledged once its journal record is on disk (see TransactionRunner.run). */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.transactions.run(fn);
  }

  async backup(path: string): Promise<BackupResult> {
    await this.ready();
    return writeBackup(path, this.options.file, this.queue);
  }

  /** Waits for the writes in flight and a running snapshot, writes a last snapshot, empties the journal. */
  close(): Promise<void> {
    return this.queue.close();
  }

  /**
   * Applies one write inside the current transaction, or in a transaction of its own (TransactionRunner.write).
   * `count`: counted in `stats.write`; `keep`: survives a rollback of the transaction (counters).
   */
  private async write(collection: string, apply: (col: MemoryCollection, undo: UndoLog | undefined) => JournalOp[], options: { count?: boolean; keep?: boolean } = {}): Promise<void> {
    await this.ready();
    if (options.count !== false) this.stats.write++;
    return this.transactions.write((undo) => apply(this.collections.get(collection), undo), options.keep === true);
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
    if (this.transactions.active) return;
    await this.queue.idle();
  }

  /** The rows matching `filter`: index-selected candidates tested by match-rows (mingo's answers, `$in` by a set). */
  private matching(col: MemoryCollection, filter: Filter): Row[] {
    return selectCandidates(col, filter).filter(compileRowTest(filter, this.queryOptions));
  }

  /** Once per engine, at startup: a host that forgot `engine` (or `file`) would lose everything on restart. */
  private warnIfMemoryOnly(): void {
    if (!this.warned) warnIfMemoryOnly(this.options);
    this.warned = true;
  }

  /** Loads the data file once (WriteQueue.ready). */
  private ready(): Promise<void> {
    return this.queue.ready();
  }

  /** For the start-up line: `memory (file .data/content.db)`, or `memory (in memory only)`. */
  describe(): string {
    return this.options.file ? `memory (file ${this.options.file})` : 'memory (in memory only)';
  }
}
