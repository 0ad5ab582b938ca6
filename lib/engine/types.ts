import type { Logger } from '../errors/logger';

/** A stored row: plain JSON-compatible data. Engines add nothing visible but `_id` (stripped by format/). */
export type Row = Record<string, unknown>;
/** A MongoDB filter document restricted to the operators listed in `pipeline/operators.ts`. */
export type Filter = Record<string, unknown>;
/** A MongoDB update document: `$set`, `$unset`, `$push`, `$pull`, `$inc` only. */
export type Update = Record<string, unknown>;
export type Pipeline = Record<string, unknown>[];

export interface IndexSpec {
  /** e.g. `{ documentId: 1, locale: 1, _status: 1 }` */
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  name: string;
  /**
   * Only rows matching this filter are indexed (MongoDB's `partialFilterExpression`): a unique index then only
   * constrains those rows. Engines support `{ <field>: { $type: <type> } }` conditions (joined by `$and`), which
   * MongoDB allows in every version (https://www.mongodb.com/docs/manual/core/index-partial/).
   */
  partialFilter?: Filter;
}

export interface FindOptions {
  sort?: Record<string, 1 | -1>;
  limit?: number;
  skip?: number;
  projection?: Record<string, 0 | 1>;
}

/** Options of `Engine.aggregate`. */
export interface AggregateOptions {
  /**
   * The caller only reads the rows and copies what it keeps (as the formatter does): the engine may then return
   * rows whose nested objects are shared with its storage instead of deep copies. Such rows must never be mutated.
   */
  readonly readOnly?: boolean;
  /**
   * The most rows the correlated `$lookup`s of this read may join, all levels together: populate (each joined row
   * counted once per place it appears) and, in the memory engine, relation sorts (one join per sorted row; relation
   * filters are not counted). The memory engine counts while it joins and stops at the first row over the limit;
   * on MongoDB the compiler bounds each populate join (`$limit`) and the caller counts the result (`onRow`), and
   * `maxTimeMS` bounds the rest. Over it: a {@link ReadLimitError}.
   */
  readonly maxJoinedRows?: number;
  /**
   * Called on every result row as it is read, before the next one is (MongoDB: as the cursor is consumed). It may
   * throw to stop the read: the engine then stops reading (closing the cursor) and rejects with that error.
   */
  readonly onRow?: (row: Row) => void;
  /**
   * Blocking stages may spill to disk past MongoDB's 100 MB memory limit (the `aggregate` command's
   * `allowDiskUse`, https://www.mongodb.com/docs/manual/reference/command/aggregate/). List reads set it; the
   * memory engine has no such limit and ignores it.
   */
  readonly allowDiskUse?: boolean;
}

/** Counts engine calls, so tests can assert "one aggregate per GET". */
export interface EngineStats {
  aggregate: number;
  find: number;
  write: number;
}

/**
 * The storage port. Every engine (memory, mongo) passes the same contract suite in `__tests__/engine/`.
 * Writes inside `transaction(fn)` are atomic and isolated from other transactions of the same engine.
 *
 * What the read path relies on (docs/architecture.md, "The read path's contracts"):
 * - Stored objects are immutable. The memory engine never changes a stored row or any object inside it: a write
 *   replaces the row with a new object (a rollback puts the old object back). So a row handed out to a
 *   `readOnly` reader stays valid after later writes, and caches keyed by a stored object's identity (the byte
 *   caches of format/json-value, the memory engine's kept match and sort results, dropped per write) need no
 *   invalidation of their own. MongoDB hands out fresh documents on every read.
 * - Pipelines may be frozen and reused: the read path passes the same deep-frozen stage objects again for the same
 *   query (lib/util/frozen); an engine may keep what it derives from a frozen stage by its identity, and must never
 *   change a stage it is given.
 * - A list's total (pipeline/page-result `countUnion`) is a `$unionWith` of the same collection whose sub-pipeline
 *   starts with the very same stage objects (`===`) as the outer pipeline, then `$count`: an engine may answer it
 *   with the number of rows those stages gave in this run (the memory engine does: execution/fast-paths/page-total), as
 *   running them again on the same data gives.
 */
export interface Engine {
  readonly name: string;
  readonly stats: EngineStats;
  /**
   * True when the engine limits each read to what is left of a request's time budget (engine/read-budget's
   * remainingTime: MongoDB's `maxTimeMS`). The document service then runs the reads of one request inside one
   * budget; an engine without a time limit per read (the memory engine) is spared it, and with it the
   * AsyncLocalStorage that slows every promise of the process once it runs (Node's async hooks).
   */
  readonly readTimeBudget?: boolean;
  /**
   * Creates collections and indexes; called at start-up (again after a failed start-up). `context.logger` is
   * where the engine reports what the host should know (a database it cannot reach, an index rebuilt).
   */
  init(collections: readonly { name: string; indexes: readonly IndexSpec[] }[], context?: EngineContext): Promise<void>;
  /**
   * Whether the engine, once started, can serve now (MongoDB: its connection has a primary, mongoose's
   * `readyState` 1). An engine without it is taken as healthy once started. Read by the health route.
   */
  healthy?(): boolean;
  /**
   * What runs, for the start-up line, credentials redacted: `mongo mongodb://***@db:27017/cms`,
   * `memory (file .data/content.db)`. `name` stands in for it when absent.
   */
  describe?(): string;
  aggregate(collection: string, pipeline: Pipeline, options?: AggregateOptions): Promise<Row[]>;
  find(collection: string, filter: Filter, options?: FindOptions): Promise<Row[]>;
  count(collection: string, filter: Filter): Promise<number>;
  insertMany(collection: string, rows: readonly Row[]): Promise<void>;
  /** Applies `update` to every row matching `filter`; returns how many matched. */
  updateMany(collection: string, filter: Filter, update: Update): Promise<number>;
  /** Replaces the first row matching `filter` with `row` (its `_id` is kept). */
  replaceOne(collection: string, filter: Filter, row: Row): Promise<number>;
  deleteMany(collection: string, filter: Filter): Promise<number>;
  /**
   * Next value(s) of the integer id sequence of `collection` (a counters collection). Returns the first. Never part
   * of the caller's transaction: ids are not given back when it rolls back or is retried (gaps), and concurrent
   * writers of one collection do not conflict on its counter.
   */
  nextId(collection: string, count?: number): Promise<number>;
  /**
   * Runs `fn` atomically: every write of `fn` or none. The memory engine runs one transaction at a time; MongoDB
   * runs a transaction and retries it on `TransientTransactionError` (so `fn` may run more than once: it must be
   * repeatable). Nested calls join the outer transaction.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * How many bytes of rows one `transaction` takes at most when a caller writes in bulk (an import): the memory
   * engine commits a transaction as one journal record, a JSON string (V8 strings stop at about 512 MiB). Absent:
   * bulk writes do not go in one transaction (MongoDB bounds a transaction's time and size:
   * https://www.mongodb.com/docs/manual/core/transactions-production-consideration/).
   */
  readonly bulkTransactionBytes?: number;
  close(): Promise<void>;
}

/** What `createContentRouter` gives an engine at start-up. */
export interface EngineContext {
  readonly logger: Logger;
}

/** Raised by engines on a unique index violation (MongoDB's E11000). */
export class DuplicateKeyError extends Error {
  override name = 'DuplicateKeyError';
  constructor(readonly collection: string, readonly index: string) {
    super(`duplicate key in ${collection} (${index})`);
  }
}

/**
 * A read stopped by one of its bounds: `joinedRows` (AggregateOptions.maxJoinedRows: `path` is the populate
 * path, outermost first, of the join that went over; `param` says whether that join is a populate or the join of
 * a relation sort), `time` (the server's time limit, MongoDB's `MaxTimeMSExpired`; `path` empty) or `size` (a result
 * document or a stage over MongoDB's size limits; `max` the 16 MB BSON limit). The router answers it with a 400
 * ValidationError naming the limit.
 */
export class ReadLimitError extends Error {
  override name = 'ReadLimitError';
  constructor(readonly limit: 'joinedRows' | 'time' | 'size', readonly max: number, readonly path: readonly string[] = [], readonly param: 'populate' | 'sort' | 'filters' = 'populate') {
    super(limit === 'time' ? `the read exceeded its time limit of ${max} ms` : limit === 'size' ? `the read's result exceeds ${max} bytes` : `${param} ${path.join('.')} joins more than ${max} rows`);
  }
}

/**
 * The database cannot be reached now (MongoDB: no server selectable, the connection lost or closed). The router
 * answers it with a 503 ServiceUnavailableError and `Retry-After`, not an unexpected 500: the outage is logged
 * once by the engine, not once per request. `cause` is the driver's error.
 */
export class EngineUnavailableError extends Error {
  override name = 'EngineUnavailableError';
  constructor(override readonly cause: unknown) {
    super(`the database cannot be reached: ${(cause as { message?: unknown } | null)?.message ?? String(cause)}`);
  }
}

/** MongoDB's maximum BSON document size, 16 MiB (https://www.mongodb.com/docs/manual/reference/limits/). */
export const MONGODB_MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

/**
 * Raised by engines when a result document is over the maximum BSON document size: MongoDB's
 * BSONObjectTooLarge (code 10334, https://www.mongodb.com/docs/manual/reference/limits/), or the memory engine's
 * `maxDocumentBytes`. `bytes` is the size when the engine knows it.
 */
export class DocumentTooLargeError extends Error {
  override name = 'DocumentTooLargeError';
  constructor(readonly collection: string, readonly bytes: number | undefined, readonly limit: number) {
    super(`a result document of ${collection} is over the ${limit}-byte document limit${bytes === undefined ? '' : ` (${bytes} bytes)`}`);
  }
}
