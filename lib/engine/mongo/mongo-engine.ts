import { AsyncLocalStorage } from 'node:async_hooks';
import type { ClientSession, Db, Document } from 'mongodb';
import type { Connection } from 'mongoose';
import { ConfigurationError } from '../../errors';
import { unknownKeyMessage } from '../../options/did-you-mean';
import type { AggregateOptions, Engine, EngineStats, Filter, FindOptions, IndexSpec, Pipeline, Row, Update } from '../types';
import { unionStage } from '../union-stage';
import { awaitConnection, DEFAULT_CONNECT_WAIT_MS } from './await-connection';
import { ensureIndex } from './ensure-index';
import { fromBson } from './from-bson';
import { loadMongoose, type Mongoose } from './load-mongoose';
import { mapMongoError } from './map-mongo-error';
import { assertMaxTimeMS, timeLimitOption, withReadLimits } from './read-time-limit';
import { DEFAULT_TRANSACTION_RETRY_MS, runTransaction } from './run-transaction';
import { assertTransactionsOption, checkTransactions } from './transaction-support';

/**
 * The part of a mongoose `Connection` the engine relies on. Declared structurally so that the published types
 * compile in apps without mongoose installed (it is an optional peer dependency); `mongoose.connection` fits.
 */
export interface MongooseConnectionLike {
  readonly readyState: number;
  readonly db?: unknown;
  asPromise(): Promise<unknown>;
  getClient(): unknown;
  on(event: string, listener: () => void): unknown;
  removeListener(event: string, listener: () => void): unknown;
}

export interface MongoEngineOptions {
  /**
   * A mongoose connection, open or not yet: the engine waits for it to open (`mongoose.connect()` may be called
   * after `createContentRouter`). The host keeps owning it (`close()` leaves it open).
   */
  connection?: MongooseConnectionLike;
  /** A MongoDB connection string; the engine opens the connection and closes it in `close()`. */
  uri?: string;
  /**
   * `true` (default): every write runs in a MongoDB transaction, and a deployment without transactions (a
   * standalone `mongod`) is refused at start-up (`router.ready` rejects, saying how to run a one-node replica set).
   * `false`: UNSAFE, writes run without transactions (a failing write keeps what it wrote before failing;
   * uniqueness still holds through the unique indexes, but two concurrent first writes of a single type can
   * both succeed); a process warning
   * (`CR_UNSAFE_WRITES`) is emitted at start-up.
   */
  transactions?: boolean;
  /**
   * How long (ms) a transaction that failed with a `TransientTransactionError` (a write conflict, an election) or
   * whose commit result is unknown may still be retried, counted from its first attempt. Default 120000, the bound
   * of the driver's `withTransaction`.
   */
  transactionRetryMs?: number;
  /**
   * How long start-up waits for the connection to open, in ms; default 30000. After it, `init` (and with it
   * `router.ready`) rejects with a message naming the connection's state; requests answer 503 meanwhile.
   */
  connectWaitMS?: number;
  /**
   * The server's time limit of every read (aggregate, find, count), in ms; default 1000; 0: none. A read over it
   * is stopped by the server (MaxTimeMSExpired) and answered 400 ("The query exceeded its time limit"). See
   * read-time-limit.ts for why this default.
   */
  maxTimeMS?: number;
}

const COUNTERS = 'counters';

/** Every key of MongoEngineOptions: another one is a typo, refused with a did-you-mean (`{ trasactions: false }`). */
const MONGO_ENGINE_OPTIONS = ['connection', 'uri', 'transactions', 'transactionRetryMs', 'connectWaitMS', 'maxTimeMS'] as const;

/**
 * The MongoDB engine: native driver collections of a mongoose connection (no mongoose models), the same rows
 * and pipelines as the memory engine. Only this folder imports mongoose, and only when the engine is used.
 *
 * @example
 * createContentRouter({ contentTypes, engine: mongoEngine({ uri: 'mongodb://localhost:27017/blog?replicaSet=rs0' }) })
 * createContentRouter({ contentTypes, engine: mongoEngine({ connection: mongoose.connection }) })
 */
export function mongoEngine(options: MongoEngineOptions): Engine {
  const unknown = Object.keys(options).find((k) => !(MONGO_ENGINE_OPTIONS as readonly string[]).includes(k));
  if (unknown !== undefined) throw new ConfigurationError('CR_INVALID_OPTIONS', unknownKeyMessage('mongoEngine(options)', unknown, MONGO_ENGINE_OPTIONS, 'option'));
  if (!options.connection === !options.uri) throw new Error('mongoEngine: pass exactly one of `connection` or `uri`');
  const wait = options.connectWaitMS;
  if (wait !== undefined && !(Number.isInteger(wait) && wait > 0)) throw new Error('mongoEngine: `connectWaitMS` must be a positive integer (ms)');
  assertTransactionsOption(options.transactions);
  assertMaxTimeMS(options.maxTimeMS);
  return new MongoEngine(options);
}

interface Ready {
  mongoose: Mongoose;
  connection: Connection;
  db: Db;
  transactional: boolean;
}

class MongoEngine implements Engine {
  readonly name = 'mongo';
  readonly stats: EngineStats = { aggregate: 0, find: 0, write: 0 };
  /** The session of the running transaction (null inside a transaction run without one). */
  private readonly scope = new AsyncLocalStorage<ClientSession | null>();
  private connecting: Promise<Ready> | undefined;
  /** Ends a pending wait for the connection when the engine is closed. */
  private closing = new AbortController();

  constructor(private readonly options: MongoEngineOptions) {}

  async init(collections: readonly { name: string; indexes: readonly IndexSpec[] }[]): Promise<void> {
    const { db } = await this.ready();
    const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
    for (const name of [COUNTERS, ...collections.map((c) => c.name)]) {
      if (!existing.has(name)) await db.createCollection(name).catch(ignoreNamespaceExists);
    }
    const log = (message: string): void => console.warn(message);
    for (const c of collections) {
      for (const index of c.indexes) await ensureIndex(db, c.name, index, log);
    }
  }

  /**
   * Reads the cursor row by row: AggregateOptions.onRow may stop it (the loop's exit closes the cursor); the
   * server's time (`maxTimeMS`) and size errors become ReadLimitErrors (read-time-limit).
   */
  async aggregate(collection: string, pipeline: Pipeline, options: AggregateOptions = {}): Promise<Row[]> {
    this.stats.aggregate++;
    const { db } = await this.ready();
    const settings = { ...this.sessionOption(), ...this.timeLimit(), ...(options.allowDiskUse === true ? { allowDiskUse: true } : {}) };
    const rows: Row[] = [];
    const run = (name: string, stages: Pipeline) => (): Promise<Row[]> => this.timed(async () => {
      for await (const doc of db.collection(name).aggregate<Row>(stages, settings)) {
        const row = fromBson(doc);
        options.onRow?.(row);
        rows.push(row);
      }
      return rows;
    });
    // "An aggregation pipeline cannot use $unionWith inside transactions"
    // (https://www.mongodb.com/docs/manual/reference/operator/aggregation/unionWith/, Restrictions): in one, a
    // trailing $unionWith (a list's total) runs as a second aggregate of the same session and snapshot, its
    // documents appended, which is what $unionWith outputs.
    const union = settings.session ? unionStage(pipeline.at(-1)) : null;
    if (!union) return this.mapped(collection, run(collection, pipeline));
    await this.mapped(collection, run(collection, pipeline.slice(0, -1)));
    return this.mapped(union.coll, run(union.coll, union.pipeline));
  }

  async find(collection: string, filter: Filter, options: FindOptions = {}): Promise<Row[]> {
    this.stats.find++;
    const { db } = await this.ready();
    const cursor = db.collection(collection).find(filter, { ...this.sessionOption(), ...this.timeLimit(), ...options });
    return this.timed(async () => fromBson((await cursor.toArray()) as Row[]));
  }

  async count(collection: string, filter: Filter): Promise<number> {
    this.stats.find++;
    const { db } = await this.ready();
    return this.timed(() => db.collection(collection).countDocuments(filter, { ...this.sessionOption(), ...this.timeLimit() }));
  }

  async insertMany(collection: string, rows: readonly Row[]): Promise<void> {
    this.stats.write++;
    if (rows.length === 0) return;
    const { db, mongoose } = await this.ready();
    const docs = rows.map(({ _id, ...fields }) => ({ _id: _id ?? new mongoose.Types.ObjectId().toHexString(), ...fields }));
    await this.mapped(collection, () => db.collection(collection).insertMany(docs as Document[], this.sessionOption()));
  }

  async updateMany(collection: string, filter: Filter, update: Update): Promise<number> {
    this.stats.write++;
    const { db } = await this.ready();
    const result = await this.mapped(collection, () => db.collection(collection).updateMany(filter, update, this.sessionOption()));
    return result.matchedCount;
  }

  async replaceOne(collection: string, filter: Filter, row: Row): Promise<number> {
    this.stats.write++;
    const { db } = await this.ready();
    const { _id, ...replacement } = row;
    const result = await this.mapped(collection, () => db.collection(collection).replaceOne(filter, replacement, this.sessionOption()));
    return result.matchedCount;
  }

  async deleteMany(collection: string, filter: Filter): Promise<number> {
    this.stats.write++;
    const { db } = await this.ready();
    const result = await db.collection(collection).deleteMany(filter, this.sessionOption());
    return result.deletedCount;
  }

  /**
   * Never in the caller's transaction: a counter bumped inside transactions would make every concurrent writer of
   * a collection write-conflict on its one counter document. Alone, the `$inc` of one document is atomic
   * (https://www.mongodb.com/docs/manual/core/write-operations-atomicity/), so ids stay unique; ids of a
   * transaction that is rolled back or retried are simply not used (gaps).
   */
  async nextId(collection: string, count = 1): Promise<number> {
    const { db } = await this.ready();
    const counters = db.collection<{ _id: string; seq: number }>(COUNTERS);
    const doc = await counters.findOneAndUpdate({ _id: collection }, { $inc: { seq: count } }, { upsert: true, returnDocument: 'after' });
    if (!doc) throw new Error(`mongoEngine: the counter of ${collection} could not be incremented`);
    return doc.seq - count + 1;
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.scope.getStore() !== undefined) return fn();
    const { connection, transactional } = await this.ready();
    if (!transactional) return this.scope.run(null, fn);
    const session = connection.getClient().startSession();
    try {
      const retryMs = this.options.transactionRetryMs ?? DEFAULT_TRANSACTION_RETRY_MS;
      return await runTransaction(session, () => this.scope.run(session, fn), { retryMs });
    } finally {
      await session.endSession();
    }
  }

  async close(): Promise<void> {
    const connecting = this.connecting;
    this.connecting = undefined;
    this.closing.abort();
    this.closing = new AbortController();
    const ready = await connecting?.catch(() => undefined);
    if (ready && this.options.uri) await ready.connection.close();
  }

  private sessionOption(): { session?: ClientSession } {
    const session = this.scope.getStore();
    return session ? { session } : {};
  }

  private timeLimit(): { maxTimeMS?: number } {
    return timeLimitOption(this.options.maxTimeMS);
  }

  private timed<T>(read: () => Promise<T>): Promise<T> {
    return withReadLimits(this.options.maxTimeMS, read);
  }

  private async mapped<T>(collection: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      throw mapMongoError(error, collection);
    }
  }

  /** The open connection; a failed attempt is forgotten, so that the next call (a retried `init`) tries again. */
  private ready(): Promise<Ready> {
    if (!this.connecting) {
      const attempt = this.connect();
      this.connecting = attempt;
      attempt.catch(() => {
        if (this.connecting === attempt) this.connecting = undefined;
      });
    }
    return this.connecting;
  }

  private async connect(): Promise<Ready> {
    const mongoose = await loadMongoose();
    const connection = (this.options.connection as Connection | undefined) ?? mongoose.createConnection(this.options.uri!);
    try {
      await awaitConnection(connection, this.options.connectWaitMS ?? DEFAULT_CONNECT_WAIT_MS, this.closing.signal);
    } catch (error) {
      if (this.options.uri) await connection.close().catch(() => undefined);
      throw error;
    }
    const db = connection.db!;
    const transactional = await checkTransactions(db, this.options.transactions);
    return { mongoose, connection, db, transactional };
  }
}

function ignoreNamespaceExists(error: unknown): void {
  if ((error as { code?: unknown }).code !== 48) throw error;
}
