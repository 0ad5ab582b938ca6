import { AsyncLocalStorage } from 'node:async_hooks';
import type { Engine, Filter, Row, Update } from '../engine/types';
import { addAnswerKeys, addFindDependencies, addPipelineDependencies } from './read-dependencies';
import type { ResponseCache, WriteChange } from './response-cache';
import { SharedVersions, VERSIONS_COLLECTION } from './shared-versions';

/** The fields that decide which rows of a key a join finds: a change of them is like a new row. */
const IDENTITY = ['documentId', 'id', 'locale', '_status'] as const;

/** A row version: its document, locale and status (a publish removes one and inserts it again). */
const versionOf = (row: Row): string => JSON.stringify([row.documentId, row.locale, row._status]);

/** What one tracked transaction wrote, per collection, and the row versions it removed (a re-publish). */
interface TxWrites {
  readonly changes: Map<string, WriteChange>;
  readonly removed: Set<string>;
  /** The collections a write changed (an update or delete that matched nothing changed nothing: no version bump). */
  readonly changed: Set<string>;
}

/** Whether a write's result says it changed something (`updateMany`/`replaceOne`/`deleteMany` return a count). */
const changedAnything = (result: unknown): boolean => typeof result !== 'number' || result > 0;

function merge(a: WriteChange | undefined, b: WriteChange): WriteChange {
  if (!a) return b;
  return {
    collection: b.collection,
    everyReader: a.everyReader || b.everyReader,
    documentIds: new Set([...(a.documentIds ?? []), ...(b.documentIds ?? [])]),
    ids: new Set([...(a.ids ?? []), ...(b.ids ?? [])]),
  };
}

function keysOf(collection: string, rows: readonly Row[], everyReader: boolean): WriteChange {
  const documentIds = new Set<string>();
  const ids = new Set<string>();
  for (const row of rows) {
    if (typeof row.documentId === 'string') documentIds.add(row.documentId);
    if (row.id !== undefined && row.id !== null) ids.add(String(row.id));
  }
  return { collection, everyReader, documentIds, ids };
}

/** Whether an update document sets, unsets or changes a row's key, locale or status. */
function touchesIdentity(update: Update): boolean {
  return Object.values(update).some((fields) => fields !== null && typeof fields === 'object' && Object.keys(fields).some((path) => (IDENTITY as readonly string[]).includes(path.split('.')[0]!)));
}

/**
 * Wraps an engine for the response cache: its reads (inside {@link ResponseCache.record}) add what they depend on
 * to the read's record (read-dependencies.ts), and its writes drop what they can change (docs/caching.md):
 * - an update, a replace or a delete drops the entries that read its collection as a set, and those that read it
 *   by a key of a row it writes (found with one `find` of the write's filter, projected to the keys, made only
 *   when some entry reads the collection by key); a change of a row's key, locale or status drops every reader;
 * - an insert drops every entry that read its collection (a new row may be one a join looked for and missed),
 *   unless it puts back a row version (key, locale, status) its own transaction removed (a publish, a discard);
 * - inside a transaction, the entries are dropped again when it ends, and answers reading a collection it wrote
 *   are not stored while it is open; with `shared`, each written collection's version is bumped once it ends
 *   (or after a write outside a transaction), before the write's caller goes on.
 */
export function trackEngine(cache: ResponseCache, engine: Engine, shared: boolean): { engine: Engine; versions?: SharedVersions } {
  const versions = shared ? new SharedVersions(engine) : undefined;
  const txScope = new AsyncLocalStorage<TxWrites>();

  const read = <T>(collection: string, filter: Filter | undefined, run: () => Promise<T>): Promise<T> => {
    const record = cache.currentRead();
    if (record) addFindDependencies(record, collection, filter);
    return run();
  };

  const describeWrite = async (collection: string, filter: Filter, replacement?: Row, update?: Update): Promise<WriteChange> => {
    if (!cache.hasKeyedReaders(collection)) return { collection, everyReader: true };
    const rows = await engine.find(collection, filter, { projection: { _id: 0, documentId: 1, id: 1, locale: 1, _status: 1 } });
    const changesIdentity =
      (update !== undefined && touchesIdentity(update)) ||
      (replacement !== undefined && rows.some((r) => IDENTITY.some((f) => (r[f] ?? null) !== (replacement[f] ?? null))));
    const tx = txScope.getStore();
    if (tx && update === undefined && replacement === undefined) for (const r of rows) tx.removed.add(versionOf(r));
    return keysOf(collection, replacement ? [...rows, replacement] : rows, changesIdentity);
  };

  const write = async <T>(collection: string, change: WriteChange, run: () => Promise<T>): Promise<T> => {
    const tx = txScope.getStore();
    if (!tx || !tx.changes.has(collection)) cache.writingChange(collection, 1);
    if (tx) tx.changes.set(collection, merge(tx.changes.get(collection), change));
    cache.invalidate(change);
    let changed = true;
    try {
      const result = await run();
      changed = changedAnything(result);
      return result;
    } finally {
      cache.invalidate(change);
      if (tx && changed) tx.changed.add(collection);
      if (!tx) {
        cache.writingChange(collection, -1);
        // Other routers need not hear of a write that matched nothing (a webhook outbox's poll, a rate limit's).
        if (changed) await versions?.bump([collection]);
      }
    }
  };

  const transaction = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (txScope.getStore()) return engine.transaction(fn);
    const tx: TxWrites = { changes: new Map(), removed: new Set(), changed: new Set() };
    try {
      return await engine.transaction(() => {
        // A retried transaction (MongoDB) runs fn again: what a rolled-back attempt wrote is still dropped at the end.
        tx.removed.clear();
        return txScope.run(tx, fn);
      });
    } finally {
      // Its writes are visible now: drop again what they touched, then let answers reading them be stored.
      for (const change of tx.changes.values()) {
        cache.invalidate(change);
        cache.writingChange(change.collection, -1);
      }
      await versions?.bump(tx.changed);
    }
  };

  const insert = (collection: string, rows: readonly Row[]): WriteChange => {
    const removed = txScope.getStore()?.removed;
    const restores = removed !== undefined && rows.length > 0 && rows.every((r) => removed.has(versionOf(r)));
    return keysOf(collection, rows, !restores);
  };

  const overrides: Partial<Engine> = {
    init: (collections, context) => engine.init(shared ? [...collections, { name: VERSIONS_COLLECTION, indexes: [] }] : collections, context),
    aggregate: async (collection, pipeline, options) => {
      const record = cache.currentRead();
      if (!record) return engine.aggregate(collection, pipeline, options);
      const walk = addPipelineDependencies(record, collection, pipeline);
      const rows = await engine.aggregate(collection, pipeline, options);
      if (walk) addAnswerKeys(record, rows);
      return rows;
    },
    find: (collection, filter, options) => read(collection, filter, () => engine.find(collection, filter, options)),
    count: (collection, filter) => read(collection, filter, () => engine.count(collection, filter)),
    insertMany: (collection, rows) => write(collection, insert(collection, rows), () => engine.insertMany(collection, rows)),
    updateMany: async (collection, filter, update) => write(collection, await describeWrite(collection, filter, undefined, update), () => engine.updateMany(collection, filter, update)),
    replaceOne: async (collection, filter, row) => write(collection, await describeWrite(collection, filter, row), () => engine.replaceOne(collection, filter, row)),
    deleteMany: async (collection, filter) => write(collection, await describeWrite(collection, filter), () => engine.deleteMany(collection, filter)),
    transaction,
  };
  const tracked = new Proxy(engine, {
    get(target, prop) {
      if (typeof prop === 'string' && prop in overrides) return overrides[prop as keyof Engine];
      // Getters and methods run on the engine itself (its private fields are not the proxy's).
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { engine: tracked, ...(versions ? { versions } : {}) };
}
