import { AsyncLocalStorage } from 'node:async_hooks';
import type { ClientSession, Db, Document } from 'mongodb';
import type { Connection } from 'mongoose';
import { redactCredentials } from '../../errors';
import { createLogger, type Logger } from '../../errors/logger';
import type { AggregateOptions, Engine, EngineContext, EngineStats, Filter, FindOptions, IndexSpec, Pipeline, Row, Update } from '../types';
import { unionStage } from '../union-stage';
import { awaitConnection, DEFAULT_CONNECT_WAIT_MS } from './await-connection';
import { closeOwnConnection, DEFAULT_SERVER_SELECTION_TIMEOUT_MS, driverTimeouts, onUnreachable, watchConnection, type Emitter } from './connection-health';
import { ensureIndex } from './ensure-index';
import { fromBson } from './from-bson';
import { requireMongoose, type Mongoose } from './load-mongoose';
import { mapMongoError, mapUnavailable } from './map-mongo-error';
import { checkMongoEngineOptions, type MongoEngineOptions } from './mongo-engine-options';
import { timeLimitOption, withReadLimits } from './read-time-limit';
import { DEFAULT_TRANSACTION_RETRY_MS, runTransaction } from './run-transaction';
import { checkTransactions } from './transaction-support';

export type { MongoEngineOptions, MongooseConnectionLike } from './mongo-engine-options';

const COUNTERS = 'counters';
/** mongoose's `readyState` of an open connection. */
const CONNECTED = 1;

/**
 * The MongoDB engine: native driver collections of a mongoose connection (no mongoose models), the same rows
 * and pipelines as the memory engine. Only this folder imports mongoose, and only when the engine is created:
 * without mongoose installed, `mongoEngine()` throws a `ConfigurationError` (`CR_MISSING_DEPENDENCY`) saying
 * `npm install mongoose`.
 *
 * @example
 * createContentRouter({ contentTypes, engine: mongoEngine({ uri: 'mongodb://localhost:27017/blog?replicaSet=rs0' }) })
 * createContentRouter({ contentTypes, engine: mongoEngine({ connection: mongoose.connection }) })
 */
export function mongoEngine(options: MongoEngineOptions): Engine {
  checkMongoEngineOptions(options);
  return new MongoEngine(options, requireMongoose());
}

interface Ready {
  mongoose: Mongoose;
  connection: Connection;
  db: Db;
  transactional: boolean;
}

class MongoEngine implements Engine {
  readonly name = 'mongo';
  /** Each read's `maxTimeMS` is what is left of the request's budget (read-time-limit's timeLimitOption). */
  readonly readTimeBudget = true;
  readonly stats: EngineStats = { aggregate: 0, find: 0, write: 0 };
  /** The session of the running transaction (null inside a transaction run without one). */
  private readonly scope = new AsyncLocalStorage<ClientSession | null>();
  private connecting: Promise<Ready> | undefined;
  /** Ends a pending wait for the connection when the engine is closed. */
  private closing = new AbortController();
  private logger: Logger = createLogger(undefined);
  /** The open connection (for `healthy()`), and what stops watching it. */
  private opened: { connection: Connection; unwatch: () => void } | undefined;
  /** A failed connection attempt was reported: once per outage, not once per retry. */
  private unreachableReported = false;

  constructor(private readonly options: MongoEngineOptions, private readonly mongoose: Mongoose) {}

  async init(collections: readonly { name: string; indexes: readonly IndexSpec[] }[], context?: EngineContext): Promise<void> {
    if (context) this.logger = context.logger;
    const { db } = await this.ready();
    const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
    for (const name of [COUNTERS, ...collections.map((c) => c.name)]) {
      if (!existing.has(name)) await db.createCollection(name).catch(ignoreNamespaceExists);
    }
    const log = (message: string): void => this.logger.warn(message);
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
    const result = await this.mapped(collection, () => db.collection(collection).deleteMany(filter, this.sessionOption()));
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
    const doc = await this.mapped(COUNTERS, () => counters.findOneAndUpdate({ _id: collection }, { $inc: { seq: count } }, { upsert: true, returnDocument: 'after' }));
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
    } catch (error) {
      throw mapUnavailable(error);
    } finally {
      await session.endSession();
    }
  }

  /** Open, with a primary: mongoose's `readyState` goes to 0 when no primary (or single server) can be reached. */
  healthy(): boolean {
    return this.opened?.connection.readyState === CONNECTED;
  }

  /** `mongo mongodb://***@db:27017/cms` (credentials redacted), or the host connection's host and database. */
  describe(): string {
    if (this.options.uri) return `mongo ${redactCredentials(this.options.uri)}`;
    const { host, port, name } = (this.opened?.connection ?? {}) as { host?: string; port?: number; name?: string };
    return host ? `mongo mongoose connection ${host}:${port ?? ''}/${name ?? ''}` : 'mongo mongoose connection';
  }

  async close(): Promise<void> {
    this.opened?.unwatch();
    this.opened = undefined;
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
    const { mongoose, options } = this;
    const uri = options.uri;
    const connection = (options.connection as Connection | undefined) ?? mongoose.createConnection(uri!, driverTimeouts(uri!, options));
    const stopReporting = uri && !this.unreachableReported ? this.reportUnreachable(connection) : (): void => undefined;
    try {
      await awaitConnection(connection, options.connectWaitMS ?? DEFAULT_CONNECT_WAIT_MS, this.closing.signal);
    } catch (error) {
      if (uri) await closeOwnConnection(connection);
      throw error;
    } finally {
      stopReporting();
    }
    this.unreachableReported = false;
    const db = connection.db!;
    try {
      const transactional = await checkTransactions(db, options.transactions);
      const unwatch = uri ? watchConnection(connection as unknown as Emitter, this.logger) : (): void => undefined;
      this.opened = { connection, unwatch };
      return { mongoose, connection, db, transactional };
    } catch (error) {
      if (uri) await closeOwnConnection(connection); // a retry opens a new one
      throw error;
    }
  }

  /**
   * Logs at once, at the driver's first failed heartbeat, which server cannot be reached and why: the attempt
   * itself only fails when server selection gives up (`serverSelectionTimeoutMS`).
   */
  private reportUnreachable(connection: Connection): () => void {
    const client = connection.getClient() as unknown as (Emitter & { options?: { serverSelectionTimeoutMS?: number } }) | undefined;
    if (!client) return () => undefined;
    const selectionMS = client.options?.serverSelectionTimeoutMS ?? DEFAULT_SERVER_SELECTION_TIMEOUT_MS;
    return onUnreachable(client, selectionMS, (line) => {
      this.unreachableReported = true;
      this.logger.error(line);
    });
  }
}

function ignoreNamespaceExists(error: unknown): void {
  if ((error as { code?: unknown }).code !== 48) throw error;
}
