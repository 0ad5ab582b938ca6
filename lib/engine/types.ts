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
 */
export interface Engine {
  readonly name: string;
  readonly stats: EngineStats;
  /** Creates collections and indexes; called once at startup. */
  init(collections: readonly { name: string; indexes: readonly IndexSpec[] }[]): Promise<void>;
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
  close(): Promise<void>;
}

/** Raised by engines on a unique index violation (MongoDB's E11000). */
export class DuplicateKeyError extends Error {
  override name = 'DuplicateKeyError';
  constructor(readonly collection: string, readonly index: string) {
    super(`duplicate key in ${collection} (${index})`);
  }
}

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
