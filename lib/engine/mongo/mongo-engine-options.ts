import { ConfigurationError } from '../../errors';
import { unknownKeyMessage } from '../../errors/did-you-mean';
import { assertMaxTimeMS } from './read-time-limit';
import { assertTransactionsOption } from './transaction-support';

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
   * `router.ready`) rejects with a message naming the connection's state; requests answer 503 meanwhile. With
   * `uri`, `serverSelectionTimeoutMS` ends a failing attempt sooner.
   */
  connectWaitMS?: number;
  /**
   * With `uri`: how long the driver looks for a server before the connection (and later an operation) fails, in
   * ms; default 5000 (the driver's own is 30000), or the connection string's `serverSelectionTimeoutMS`.
   */
  serverSelectionTimeoutMS?: number;
  /**
   * With `uri`: how long establishing one connection to a server may take, in ms; default 10000 (the driver's
   * own is 30000), or the connection string's `connectTimeoutMS`.
   */
  connectTimeoutMS?: number;
  /**
   * The server's time limit of every read (aggregate, find, count), in ms; default 1000; 0: none. A read over it
   * is stopped by the server (MaxTimeMSExpired) and answered 400 ("The query exceeded its time limit"). See
   * read-time-limit.ts for why this default.
   */
  maxTimeMS?: number;
}

/** Every key of MongoEngineOptions: another one is a typo, refused with a did-you-mean (`{ trasactions: false }`). */
const MONGO_ENGINE_OPTIONS = [
  'connection', 'uri', 'transactions', 'transactionRetryMs', 'connectWaitMS', 'serverSelectionTimeoutMS', 'connectTimeoutMS', 'maxTimeMS',
] as const;

/**
 * Checks `mongoEngine(options)` when the engine is created: unknown keys (with a did-you-mean), exactly one of
 * `connection` and `uri`, the time options.
 *
 * @example
 * checkMongoEngineOptions({ uri: 'mongodb://db/cms', serverSelectionTimeoutMS: 2000 });
 */
export function checkMongoEngineOptions(options: MongoEngineOptions): void {
  const unknown = Object.keys(options).find((k) => !(MONGO_ENGINE_OPTIONS as readonly string[]).includes(k));
  if (unknown !== undefined) throw new ConfigurationError('CR_INVALID_OPTIONS', unknownKeyMessage('mongoEngine(options)', unknown, MONGO_ENGINE_OPTIONS, 'option'));
  if (!options.connection === !options.uri) throw new Error('mongoEngine: pass exactly one of `connection` or `uri`');
  for (const name of ['connectWaitMS', 'serverSelectionTimeoutMS', 'connectTimeoutMS'] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isInteger(value) && value > 0 && value <= 2_147_483_647)) {
      throw new Error(`mongoEngine: \`${name}\` must be a positive integer (ms)`);
    }
  }
  if (options.connection && (options.serverSelectionTimeoutMS !== undefined || options.connectTimeoutMS !== undefined)) {
    throw new Error('mongoEngine: `serverSelectionTimeoutMS` and `connectTimeoutMS` apply to the engine\'s own connection (`uri`); give them to mongoose.connect() for your `connection`');
  }
  assertTransactionsOption(options.transactions);
  assertMaxTimeMS(options.maxTimeMS);
}
