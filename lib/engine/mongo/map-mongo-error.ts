import { DocumentTooLargeError, DuplicateKeyError, EngineUnavailableError, MONGODB_MAX_DOCUMENT_BYTES } from '../types';

/**
 * The Node driver's errors for a database that cannot be reached: no server selectable within
 * serverSelectionTimeoutMS, a network error or timeout on the socket, a client closed or not connected, a
 * connection pool cleared after a network error (https://mongodb.github.io/node-mongodb-native/ API: MongoError
 * subclasses). Each is an outage, not a bug of the request.
 */
const UNAVAILABLE = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
]);

/**
 * A driver error for a database that cannot be reached as an EngineUnavailableError (answered 503); any other
 * error as is.
 *
 * @example
 * try { await c.countDocuments(f) } catch (e) { throw mapUnavailable(e) }
 */
export function mapUnavailable(error: unknown): unknown {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' && UNAVAILABLE.has(name) ? new EngineUnavailableError(error) : error;
}

/**
 * Maps a driver error to the engine's: E11000 (a unique index violation, also inside bulk writes) becomes a
 * DuplicateKeyError naming the collection and the index; BSONObjectTooLarge (10334: a result document over
 * 16 MB) a DocumentTooLargeError; a database that cannot be reached an EngineUnavailableError; anything else is
 * returned as is.
 *
 * @example
 * try { await c.insertMany(rows) } catch (e) { throw mapMongoError(e, 'articles') }
 */
export function mapMongoError(error: unknown, collection: string): unknown {
  const e = error as { code?: unknown; message?: unknown; writeErrors?: { code?: unknown }[] } | null;
  const code = e?.code ?? e?.writeErrors?.[0]?.code;
  const unavailable = mapUnavailable(error);
  if (unavailable !== error) return unavailable;
  if (code === 10334 || (e as { codeName?: unknown } | null)?.codeName === 'BSONObjectTooLarge') return new DocumentTooLargeError(collection, undefined, MONGODB_MAX_DOCUMENT_BYTES);
  if (code !== 11000 && code !== 11001) return error;
  const match = /index: (\S+)/.exec(typeof e?.message === 'string' ? e.message : '');
  return new DuplicateKeyError(collection, match?.[1] ?? 'unknown');
}
