import { DocumentTooLargeError, DuplicateKeyError, MONGODB_MAX_DOCUMENT_BYTES } from '../types';

/**
 * Maps a driver error to the engine's: E11000 (a unique index violation, also inside bulk writes) becomes a
 * DuplicateKeyError naming the collection and the index; BSONObjectTooLarge (10334: a result document over
 * 16 MB) a DocumentTooLargeError; anything else is returned as is.
 *
 * @example
 * try { await c.insertMany(rows) } catch (e) { throw mapMongoError(e, 'articles') }
 */
export function mapMongoError(error: unknown, collection: string): unknown {
  const e = error as { code?: unknown; message?: unknown; writeErrors?: { code?: unknown }[] } | null;
  const code = e?.code ?? e?.writeErrors?.[0]?.code;
  if (code === 10334 || (e as { codeName?: unknown } | null)?.codeName === 'BSONObjectTooLarge') return new DocumentTooLargeError(collection, undefined, MONGODB_MAX_DOCUMENT_BYTES);
  if (code !== 11000 && code !== 11001) return error;
  const match = /index: (\S+)/.exec(typeof e?.message === 'string' ? e.message : '');
  return new DuplicateKeyError(collection, match?.[1] ?? 'unknown');
}
