import { AsyncLocalStorage } from 'node:async_hooks';
import type { ClientSession, Db, Document } from 'mongodb';
import type { Connection } from 'mongoose';
import type { Engine, EngineStats, Filter, FindOptions, IndexSpec, Pipeline, Row, Update } from '../types';
import { ensureIndex } from './ensure-index';
import { awaitConnection, DEFAULT_CONNECT_WAIT_MS } from './await-connection';
import { fromBson } from './from-bson';
import { loadMongoose, type Mongoose } from './load-mongoose';
import { mapMongoError } from './map-mongo-error';

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
   * Whether `transaction(fn)` uses a MongoDB transaction: `'auto'` (default) when the server is a replica set
   * or a sharded cluster, which are the deployments that support them; a standalone server runs fn without one.
   */
  transactions?: 'auto' | boolean;
  /**
   * How long start-up waits for the connection to open, in ms; default 30000. After it, `init` (and with it
   * `router.ready`) rejects with a message naming the connection's state; requests answer 503 meanwhile.
   */
  connectWaitMS?: number;
}

const COUNTERS = 'counters';

/**
 * The MongoDB engine: native driver collections of a mongoose connection (no mongoose models), the same rows
 * and pipelines as the memory engine. Only this folder imports mongoose, and only when the engine is used.
 *
 * @example
 * createContentRouter({ contentTypes, engine: mongoEngine({ uri: 'mongodb://localhost:27017/blog?replicaSet=rs0' }) })
 * createContentRouter({ contentTypes, engine: mongoEngine({ connection: mongoose.connection }) })
 */
export function mongoEngine(options: MongoEngineOptions): Engine {
  if (!options.connection === !options.uri) throw new Error('mongoEngine: pass exactly one of `connection` or `uri`');
  const wait = options.connectWaitMS;
  if (wait !== undefined && !(Number.isInteger(wait) && wait > 0)) throw new Error('mongoEngine: `connectWaitMS` must be a positive integer (ms)');
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

  async aggregate(collection: string, pipeline: Pipeline): Promise<Row[]> {
    this.stats.aggregate++;
    const { db } = await this.ready();
    return fromBson(await db.collection(collection).aggregate<Row>(pipeline, this.sessionOption()).toArray());
  }

  async find(collection: string, filter: Filter, options: FindOptions = {}): Promise<Row[]> {
    this.stats.find++;
    const { db } = await this.ready();
    const cursor = db.collection(collection).find(filter, { ...this.sessionOption(), ...options });
    return fromBson((await cursor.toArray()) as Row[]);
  }

  async count(collection: string, filter: Filter): Promise<number> {
    this.stats.find++;
    const { db } = await this.ready();
    return db.collection(collection).countDocuments(filter, this.sessionOption());
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

  async nextId(collection: string, count = 1): Promise<number> {
    const { db } = await this.ready();
    const counters = db.collection<{ _id: string; seq: number }>(COUNTERS);
    const doc = await counters.findOneAndUpdate(
      { _id: collection },
      { $inc: { seq: count } },
      { upsert: true, returnDocument: 'after', ...this.sessionOption() },
    );
    if (!doc) throw new Error(`mongoEngine: the counter of ${collection} could not be incremented`);
    return doc.seq - count + 1;
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.scope.getStore() !== undefined) return fn();
    const { connection, transactional } = await this.ready();
    if (!transactional) return this.scope.run(null, fn);
    const session = connection.getClient().startSession();
    try {
      session.startTransaction();
      const result = await this.scope.run(session, fn);
      await session.commitTransaction();
      return result;
    } catch (error) {
      if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
      throw error;
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
    const setting = this.options.transactions ?? 'auto';
    const transactional = setting === 'auto' ? await supportsTransactions(db) : setting;
    return { mongoose, connection, db, transactional };
  }
}

/** Replica sets (`setName`) and mongos routers (`msg: 'isdbgrid'`) support multi-document transactions. */
async function supportsTransactions(db: Db): Promise<boolean> {
  const hello = await db.admin().command({ hello: 1 });
  return typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
}

function ignoreNamespaceExists(error: unknown): void {
  if ((error as { code?: unknown }).code !== 48) throw error;
}
