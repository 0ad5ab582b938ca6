import { AsyncLocalStorage } from 'node:async_hooks';
import type { Engine } from '../engine';
import { emptyDependencies, type ReadDependencies } from './read-dependencies';
import type { SharedVersions } from './shared-versions';
import { trackEngine } from './track-engine';

/** One stored answer: its bytes, the headers that go with them, and what its read depended on. */
export interface CachedAnswer {
  readonly body: Buffer;
  readonly etag: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly reads: ReadDependencies;
}

/** What a read touched while it ran (filled by the tracking engine through AsyncLocalStorage). */
export interface ReadRecord extends ReadDependencies {
  /** The write sequence number when the read started. */
  readonly startedAt: number;
}

/**
 * What one write changed in `collection`: the `documentIds` / `ids` of the rows it wrote, or `everyReader` when
 * it may change answers that read the collection by other keys (new rows, a row's key, status or locale changed,
 * or keys unknown).
 */
export interface WriteChange {
  readonly collection: string;
  readonly everyReader: boolean;
  readonly documentIds?: ReadonlySet<string>;
  readonly ids?: ReadonlySet<string>;
}

/** The `responseCache` option (docs/caching.md). */
export interface ResponseCacheOptions {
  /** The most bytes of bodies kept (least recently used dropped first). */
  maxBytes: number;
  /**
   * Several routers (processes, or router instances) share the database: every write bumps a version row and
   * every cached read first reads the versions (one query). Default: true, but on the memory engine (one process).
   */
  shared?: boolean;
}

/**
 * The heap bytes an entry is counted for beyond its body's bytes, its key's, its headers' and its recorded keys':
 * the entry object, the body's Buffer object, the LRU map's slot, its dependency sets. Measured, not guessed
 * (bench/cache.ts's memory check: the heap and array buffers an emptied cache frees, against its `size`).
 */
const ENTRY_OVERHEAD = 1024;
/** The bytes each collection an entry read is counted for (its slot in the entry's sets and maps and in the reverse index). */
const COLLECTION_OVERHEAD = 96;
/** The bytes one recorded key is counted for beyond its characters (its string header and its slot in a Set). */
const KEY_OVERHEAD = 48;
/**
 * The most keys (`documentId`s and `id`s) one entry records. An answer that read more (a page of 100 documents
 * populating everything) records every collection it read by key as read as a set instead: any write of them drops
 * it. Still exact (a write drops at least what it can change), only coarser, and the entry's bookkeeping stays small.
 */
export const MAX_RECORDED_KEYS = 512;

/** The bytes a string is counted for: two per UTF-16 code unit (one-byte strings take less). */
const chars = (text: string): number => text.length * 2;

const intersects = (a: ReadonlySet<string> | undefined, b: ReadonlySet<string>): boolean => {
  if (!a) return false;
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) return true;
  return false;
};

/** Whether a read depended on `collection` by key only (not as a set). */
const byKeyOnly = (reads: ReadDependencies, collection: string): boolean => reads.keyed.has(collection) && !reads.sets.has(collection);

/**
 * What an entry keeps of its read's record: the record itself (without its start), or, past
 * {@link MAX_RECORDED_KEYS} keys, its collections read as sets and no keys.
 */
function recordedReads(record: ReadRecord): ReadDependencies {
  const { startedAt: _, ...reads } = record;
  if (reads.documentIds.size + reads.ids.size <= MAX_RECORDED_KEYS) return reads;
  return { collections: reads.collections, sets: new Set(reads.collections), keyed: new Map(), documentIds: new Set(), ids: new Set() };
}

/** The bytes an entry is counted for: its body, and an estimate of the heap it holds (measured, see ENTRY_OVERHEAD). */
function entryBytes(key: string, answer: Omit<CachedAnswer, 'reads'>, reads: ReadDependencies): number {
  let bytes = answer.body.length + ENTRY_OVERHEAD + chars(key) + chars(answer.etag);
  for (const [name, value] of Object.entries(answer.headers)) bytes += chars(name) + chars(value) + KEY_OVERHEAD;
  for (const c of reads.collections) bytes += COLLECTION_OVERHEAD + chars(c);
  for (const k of reads.documentIds) bytes += chars(k) + KEY_OVERHEAD;
  for (const k of reads.ids) bytes += chars(k) + KEY_OVERHEAD;
  return bytes;
}

/**
 * The router's response cache: an LRU of answers within a byte budget, and the bookkeeping that keeps it exact.
 *
 * Every write through the tracked engine ({@link ResponseCache.track}) drops the entries it can change, when it
 * starts and when it ends (and, for writes inside a transaction, when the transaction ends: they are visible
 * then): an entry that read the written collection as a set, or by a key the write touched ({@link WriteChange}).
 * A read's answer is stored only if none of the collections it read was written while it ran, nor is being
 * written, nor was written in a transaction still open. With {@link ResponseCacheOptions.shared}, other routers'
 * writes are seen through {@link SharedVersions} ({@link ResponseCache.sync}, before each lookup).
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedAnswer & { bytes: number }>();
  /** The keys of the entries that read each collection. */
  private readonly readers = new Map<string, Set<string>>();
  /** How many entries read each collection by key only (a write of it then needs its keys). */
  private readonly keyedReaders = new Map<string, number>();
  private bytes = 0;
  private seq = 0;
  private readonly lastWrite = new Map<string, number>();
  private readonly writing = new Map<string, number>();
  private readonly reads = new AsyncLocalStorage<ReadRecord>();
  private versions: SharedVersions | undefined;
  private foreign = new Map<string, number>();

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

  /** The entry of `key`, without counting a hit or changing its place (tests, diagnostics). */
  peek(key: string): CachedAnswer | undefined {
    return this.entries.get(key);
  }

  /** Runs `fn` recording what its engine reads depend on. */
  record<T>(fn: (record: ReadRecord) => T): T {
    const record: ReadRecord = { ...emptyDependencies(), startedAt: this.seq };
    return this.reads.run(record, () => fn(record));
  }

  /** The read being recorded in this async context, if any (for the tracking engine). */
  currentRead(): ReadRecord | undefined {
    return this.reads.getStore();
  }

  /** Stores an answer if nothing it read changed (or is changing) since its read started; false if not stored. */
  store(key: string, record: ReadRecord, answer: Omit<CachedAnswer, 'reads'>): boolean {
    if (record.collections.size === 0) return false;
    for (const c of record.collections) {
      if ((this.lastWrite.get(c) ?? -1) > record.startedAt || (this.writing.get(c) ?? 0) > 0) return false;
    }
    const reads = recordedReads(record);
    const bytes = entryBytes(key, answer, reads);
    if (bytes > this.options.maxBytes) return false;
    this.delete(key);
    this.entries.set(key, { ...answer, reads, bytes });
    this.bytes += bytes;
    for (const c of reads.collections) {
      let keys = this.readers.get(c);
      if (!keys) this.readers.set(c, (keys = new Set()));
      keys.add(key);
      if (byKeyOnly(reads, c)) this.keyedReaders.set(c, (this.keyedReaders.get(c) ?? 0) + 1);
    }
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.delete(oldest);
    }
    return true;
  }

  /** Drops every entry (what is being written stays marked). */
  clear(): void {
    for (const key of [...this.entries.keys()]) this.delete(key);
  }

  /** The keys the reverse index holds (an entry's key once per collection it read): for tests and the memory check. */
  get indexed(): number {
    let n = 0;
    for (const keys of this.readers.values()) n += keys.size;
    return n;
  }

  /** The collections the reverse index holds (each read by at least one entry). */
  get indexedCollections(): number {
    return this.readers.size;
  }

  /** The `documentId`s and `id`s the entries recorded, all entries together. */
  get recordedKeys(): number {
    let n = 0;
    for (const { reads } of this.entries.values()) n += reads.documentIds.size + reads.ids.size;
    return n;
  }

  /** Whether some entry reads `collection` by key only: a write of it must then say which keys it wrote. */
  hasKeyedReaders(collection: string): boolean {
    return (this.keyedReaders.get(collection) ?? 0) > 0;
  }

  /** Drops the entries a write can change (a collection name alone: every entry that read it), and marks it written now. */
  invalidate(change: WriteChange | string): void {
    const c: WriteChange = typeof change === 'string' ? { collection: change, everyReader: true } : change;
    this.lastWrite.set(c.collection, ++this.seq);
    const keys = this.readers.get(c.collection);
    if (!keys) return;
    for (const key of [...keys]) {
      const { reads } = this.entries.get(key)!;
      const fields = reads.keyed.get(c.collection);
      // Read as a set (or not known to be by key only): any write of the collection may change it.
      const drop =
        c.everyReader ||
        !fields ||
        reads.sets.has(c.collection) ||
        (fields.has('documentId') && c.documentIds !== undefined && intersects(c.documentIds, reads.documentIds)) ||
        (fields.has('id') && c.ids !== undefined && intersects(c.ids, reads.ids));
      if (drop) this.delete(key);
    }
  }

  /** A write of `collection` starts (answers reading it are not stored until it ends) or ends (`delta` -1). */
  writingChange(collection: string, delta: 1 | -1): void {
    this.writing.set(collection, (this.writing.get(collection) ?? 0) + delta);
  }

  /** Counts this router's writes in the shared versions (no-op unless `shared`). */
  async bump(collections: Iterable<string>): Promise<void> {
    await this.versions?.bump(collections);
  }

  /**
   * Reads the shared versions (one query) and drops the entries of every collection another router wrote since
   * the last read. Call it before a lookup; without `shared` it does nothing.
   */
  async sync(): Promise<void> {
    if (!this.versions) return;
    const now = await this.versions.read();
    for (const c of new Set([...now.keys(), ...this.foreign.keys()])) {
      if ((now.get(c) ?? 0) !== (this.foreign.get(c) ?? 0)) this.invalidate(c);
    }
    this.foreign = now;
  }

  /** The engine whose reads are recorded and whose writes invalidate (every part of the router must use it). */
  track(engine: Engine): Engine {
    const shared = this.options.shared ?? engine.name !== 'memory';
    const tracked = trackEngine(this, engine, shared);
    this.versions = tracked.versions;
    return tracked.engine;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    for (const c of entry.reads.collections) {
      const keys = this.readers.get(c);
      keys?.delete(key);
      if (keys?.size === 0) this.readers.delete(c);
      if (byKeyOnly(entry.reads, c)) {
        const n = this.keyedReaders.get(c)! - 1;
        if (n === 0) this.keyedReaders.delete(c);
        else this.keyedReaders.set(c, n);
      }
    }
  }
}
