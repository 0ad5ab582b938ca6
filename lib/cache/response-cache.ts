import { AsyncLocalStorage } from 'node:async_hooks';
import type { Engine, Pipeline } from '../engine';

/** One stored answer: its bytes, the headers that go with them, and the collections its read touched. */
export interface CachedAnswer {
  readonly body: Buffer;
  readonly etag: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly collections: ReadonlySet<string>;
}

/** What a read touched while it ran (filled by the tracking engine through AsyncLocalStorage). */
export interface ReadRecord {
  readonly collections: Set<string>;
  /** The write sequence number when the read started. */
  readonly startedAt: number;
}

/** The `responseCache` option: the most bytes of bodies kept (least recently used dropped first). */
export interface ResponseCacheOptions {
  maxBytes: number;
}

/** The bytes an entry is counted for beyond its body (key, headers, bookkeeping). */
const ENTRY_OVERHEAD = 512;

/**
 * The collections an aggregation pipeline reads besides its own: `$lookup.from`, `$graphLookup.from`,
 * `$unionWith` (a name or `{ coll }`), in nested pipelines and `$facet`s too.
 *
 * @example
 * pipelineCollections([{ $lookup: { from: 'authors', pipeline: [{ $lookup: { from: 'files' } }] } }]); // ['authors', 'files']
 */
export function pipelineCollections(pipeline: Pipeline, into: Set<string> = new Set()): Set<string> {
  for (const stage of pipeline as readonly Record<string, unknown>[]) {
    const lookup = (stage.$lookup ?? stage.$graphLookup) as { from?: unknown; pipeline?: unknown } | undefined;
    if (lookup) {
      if (typeof lookup.from === 'string') into.add(lookup.from);
      if (Array.isArray(lookup.pipeline)) pipelineCollections(lookup.pipeline as Pipeline, into);
    }
    const union = stage.$unionWith as string | { coll?: unknown; pipeline?: unknown } | undefined;
    if (typeof union === 'string') into.add(union);
    else if (union) {
      if (typeof union.coll === 'string') into.add(union.coll);
      if (Array.isArray(union.pipeline)) pipelineCollections(union.pipeline as Pipeline, into);
    }
    const facet = stage.$facet as Record<string, unknown> | undefined;
    if (facet) for (const sub of Object.values(facet)) if (Array.isArray(sub)) pipelineCollections(sub as Pipeline, into);
  }
  return into;
}

/**
 * The router's response cache: an LRU of answers within a byte budget, and the bookkeeping that keeps it exact.
 *
 * Every write through the engine ({@link ResponseCache.track}) drops the entries that read its collection, when it
 * starts and when it ends (and, for writes inside a transaction, when the transaction ends: they are visible
 * then). A read's answer is stored only if none of the collections it read was written while it ran, nor is being
 * written, nor was written in a transaction still open: an answer computed from data a write was changing is
 * never kept. One process only: another instance's writes are not seen (docs/caching.md).
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedAnswer & { bytes: number }>();
  /** The keys of the entries that read each collection. */
  private readonly readers = new Map<string, Set<string>>();
  private bytes = 0;
  private seq = 0;
  private readonly lastWrite = new Map<string, number>();
  private readonly inFlight = new Map<string, number>();
  private readonly pending = new Set<string>();
  private openTransactions = 0;
  private readonly reads = new AsyncLocalStorage<ReadRecord>();

  constructor(private readonly options: ResponseCacheOptions) {}

  /** Answers served from the cache (lookups that found an entry). */
  hits = 0;

  /** Bytes of the entries held. */
  get size(): number {
    return this.bytes;
  }

  /** Entries held. */
  get count(): number {
    return this.entries.size;
  }

  /** The entry of `key`, marked as the most recently used. */
  get(key: string): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Runs `fn` recording the collections its engine reads touch. */
  record<T>(fn: (record: ReadRecord) => T): T {
    const record: ReadRecord = { collections: new Set(), startedAt: this.seq };
    return this.reads.run(record, () => fn(record));
  }

  /** Stores an answer if nothing it read changed (or is changing) since its read started; false if not stored. */
  store(key: string, record: ReadRecord, answer: Omit<CachedAnswer, 'collections'>): boolean {
    if (record.collections.size === 0) return false;
    for (const c of record.collections) {
      if ((this.lastWrite.get(c) ?? -1) > record.startedAt || (this.inFlight.get(c) ?? 0) > 0 || this.pending.has(c)) return false;
    }
    const bytes = answer.body.length + key.length * 2 + ENTRY_OVERHEAD;
    if (bytes > this.options.maxBytes) return false;
    this.delete(key);
    this.entries.set(key, { ...answer, collections: new Set(record.collections), bytes });
    this.bytes += bytes;
    for (const c of record.collections) {
      let keys = this.readers.get(c);
      if (!keys) this.readers.set(c, (keys = new Set()));
      keys.add(key);
    }
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.delete(oldest);
    }
    return true;
  }

  /** Drops every entry that read `collection`, and marks it written now. */
  invalidate(collection: string): void {
    this.lastWrite.set(collection, ++this.seq);
    const keys = this.readers.get(collection);
    if (keys) for (const key of [...keys]) this.delete(key);
  }

  /** The engine whose reads are recorded and whose writes invalidate (every part of the router must use it). */
  track(engine: Engine): Engine {
    const noteRead = (collection: string, pipeline?: Pipeline): void => {
      const record = this.reads.getStore();
      if (!record) return;
      record.collections.add(collection);
      if (pipeline) pipelineCollections(pipeline, record.collections);
    };
    const write = async <T>(collection: string, run: () => Promise<T>): Promise<T> => {
      this.inFlight.set(collection, (this.inFlight.get(collection) ?? 0) + 1);
      if (this.openTransactions > 0) this.pending.add(collection);
      this.invalidate(collection);
      try {
        return await run();
      } finally {
        this.inFlight.set(collection, this.inFlight.get(collection)! - 1);
        this.invalidate(collection);
      }
    };
    const transaction = async <T>(fn: () => Promise<T>): Promise<T> => {
      this.openTransactions++;
      try {
        return await engine.transaction(fn);
      } finally {
        // Writes of a transaction are visible when it ends: drop again what they touched. With transactions still
        // open (concurrent ones), their collections stay pending: answers reading them are not stored.
        if (--this.openTransactions === 0) {
          const written = [...this.pending];
          this.pending.clear();
          for (const c of written) this.invalidate(c);
        }
      }
    };
    const overrides: Partial<Engine> = {
      aggregate: (collection, pipeline, options) => (noteRead(collection, pipeline), engine.aggregate(collection, pipeline, options)),
      find: (collection, filter, options) => (noteRead(collection), engine.find(collection, filter, options)),
      count: (collection, filter) => (noteRead(collection), engine.count(collection, filter)),
      insertMany: (collection, rows) => write(collection, () => engine.insertMany(collection, rows)),
      updateMany: (collection, filter, update) => write(collection, () => engine.updateMany(collection, filter, update)),
      replaceOne: (collection, filter, row) => write(collection, () => engine.replaceOne(collection, filter, row)),
      deleteMany: (collection, filter) => write(collection, () => engine.deleteMany(collection, filter)),
      transaction,
    };
    return new Proxy(engine, {
      get(target, prop) {
        if (typeof prop === 'string' && prop in overrides) return overrides[prop as keyof Engine];
        // Getters and methods run on the engine itself (its private fields are not the proxy's).
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    for (const c of entry.collections) this.readers.get(c)?.delete(key);
  }
}
