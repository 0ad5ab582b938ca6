import { AsyncLocalStorage } from 'node:async_hooks';
import { Aggregator, Query, updateMany as mingoUpdateMany } from 'mingo';
import { DuplicateKeyError, type Engine, type EngineStats, type Filter, type FindOptions, type IndexSpec, type Pipeline, type Row, type Update } from '../types';

export interface MemoryEngineOptions {
  /** Reserved for the durable mode (journal file); see docs/engines.md. */
  file?: string;
}

const MINGO_OPTIONS = { scriptEnabled: false, idKey: '_id' } as const;

/**
 * The embedded engine: collections are arrays in process memory and mingo executes the very same
 * aggregation pipelines that MongoDB would.
 *
 * @example
 * createContentRouter({ contentTypes, engine: memoryEngine() })
 */
export function memoryEngine(options: MemoryEngineOptions = {}): Engine {
  return new MemoryEngine(options);
}

class MemoryEngine implements Engine {
  readonly name = 'memory';
  readonly stats: EngineStats = { aggregate: 0, find: 0, write: 0 };
  private readonly collections = new Map<string, Row[]>();
  private readonly counters = new Map<string, number>();
  private readonly uniqueIndexes = new Map<string, IndexSpec[]>();
  private readonly txScope = new AsyncLocalStorage<true>();
  private queue: Promise<unknown> = Promise.resolve();
  private nextObjectId = 1;

  constructor(readonly options: MemoryEngineOptions) {}

  private rows(collection: string): Row[] {
    let rows = this.collections.get(collection);
    if (!rows) {
      rows = [];
      this.collections.set(collection, rows);
    }
    return rows;
  }

  async init(collections: readonly { name: string; indexes: readonly IndexSpec[] }[]): Promise<void> {
    for (const c of collections) {
      this.rows(c.name);
      this.uniqueIndexes.set(c.name, c.indexes.filter((i) => i.unique));
    }
  }

  async aggregate(collection: string, pipeline: Pipeline): Promise<Row[]> {
    this.stats.aggregate++;
    const agg = new Aggregator(pipeline, {
      ...MINGO_OPTIONS,
      collectionResolver: (name: string) => this.rows(name),
    });
    return structuredClone(agg.run(this.rows(collection)) as Row[]);
  }

  async find(collection: string, filter: Filter, options: FindOptions = {}): Promise<Row[]> {
    this.stats.find++;
    let cursor = new Query(filter, MINGO_OPTIONS).find<Row>(this.rows(collection), options.projection);
    if (options.sort) cursor = cursor.sort(options.sort);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit) cursor = cursor.limit(options.limit);
    return structuredClone(cursor.all());
  }

  async count(collection: string, filter: Filter): Promise<number> {
    this.stats.find++;
    return new Query(filter, MINGO_OPTIONS).find(this.rows(collection)).all().length;
  }

  async insertMany(collection: string, rows: readonly Row[]): Promise<void> {
    this.stats.write++;
    const target = this.rows(collection);
    const copies = rows.map((r) => ({ _id: this.nextObjectId++, ...structuredClone(r) }));
    for (const copy of copies) this.checkUnique(collection, copy, [...target, ...copies]);
    target.push(...copies);
  }

  async updateMany(collection: string, filter: Filter, update: Update): Promise<number> {
    this.stats.write++;
    const rows = this.rows(collection);
    const result = mingoUpdateMany(rows, filter, structuredClone(update) as never, { cloneMode: 'deep' }, MINGO_OPTIONS);
    return result.matchedCount;
  }

  async replaceOne(collection: string, filter: Filter, row: Row): Promise<number> {
    this.stats.write++;
    const rows = this.rows(collection);
    const q = new Query(filter, MINGO_OPTIONS);
    const index = rows.findIndex((r) => q.test(r));
    if (index < 0) return 0;
    const next = { ...structuredClone(row), _id: rows[index]!._id };
    this.checkUnique(collection, next, rows.filter((_, i) => i !== index));
    rows[index] = next;
    return 1;
  }

  async deleteMany(collection: string, filter: Filter): Promise<number> {
    this.stats.write++;
    const rows = this.rows(collection);
    const q = new Query(filter, MINGO_OPTIONS);
    const kept = rows.filter((r) => !q.test(r));
    const removed = rows.length - kept.length;
    this.collections.set(collection, kept);
    return removed;
  }

  async nextId(collection: string, count = 1): Promise<number> {
    const first = (this.counters.get(collection) ?? 0) + 1;
    this.counters.set(collection, first + count - 1);
    return first;
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.txScope.getStore()) return fn();
    const run = this.queue.then(() => this.txScope.run(true, fn));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {}

  private checkUnique(collection: string, row: Row, others: readonly Row[]): void {
    for (const index of this.uniqueIndexes.get(collection) ?? []) {
      const keys = Object.keys(index.keys);
      const clash = others.some((o) => o !== row && keys.every((k) => o[k] === row[k]));
      if (clash) throw new DuplicateKeyError(collection, index.name);
    }
  }
}
