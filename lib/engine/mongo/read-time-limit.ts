import { ReadLimitError } from '../types';

/**
 * The server time (ms) a read may take by default (`mongoEngine({ maxTimeMS })`), sent as the `maxTimeMS` of
 * every aggregate, find and count: "the cumulative time limit in milliseconds for processing operations on the
 * cursor", after which the server stops the operation at its next interrupt point and answers MaxTimeMSExpired
 * (code 50) (https://www.mongodb.com/docs/manual/reference/method/cursor.maxTimeMS/, and the `maxTimeMS` field
 * of https://www.mongodb.com/docs/manual/reference/command/aggregate/). Why 1000: a read of this API is an
 * index probe per row of a bounded page (rest.maxLimit) and of bounded populate joins (rest.maxJoinedRows);
 * one that runs for a second is a hostile or pathological shape (a scan of a huge collection by an unindexed
 * operator), and a public API must answer within about 2 s (issue 11), leaving the other second for waiting for
 * a pooled connection, the transfer and the formatting. Hosts with slower legitimate reads raise it.
 */
export const DEFAULT_MAX_TIME_MS = 1000;

/** Throws unless `ms` is undefined or a non-negative integer (0 disables the limit, as for the server). */
export function assertMaxTimeMS(ms: unknown): void {
  if (ms !== undefined && !(typeof ms === 'number' && Number.isInteger(ms) && ms >= 0)) {
    throw new Error('mongoEngine: `maxTimeMS` must be a non-negative integer (ms; 0 disables the limit)');
  }
}

/**
 * The server's MaxTimeMSExpired (code 50, also as a `codeName`) as a ReadLimitError('time'); any other error as is.
 *
 * @example
 * try { await cursor.toArray() } catch (e) { throw mapTimeLimit(e, 1000) }
 */
export function mapTimeLimit(error: unknown, maxTimeMS: number): unknown {
  const e = error as { code?: unknown; codeName?: unknown } | null;
  if (e?.code !== 50 && e?.codeName !== 'MaxTimeMSExpired') return error;
  return new ReadLimitError('time', maxTimeMS);
}
