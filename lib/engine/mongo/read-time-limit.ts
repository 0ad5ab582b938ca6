import { MONGODB_MAX_DOCUMENT_BYTES, ReadLimitError } from '../types';
import { mapUnavailable } from './map-mongo-error';
import { remainingTime } from '../read-budget';

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
 * Server errors of a read whose work outgrew the server's limits: the 100 MB a `$lookup` (4568) or a `$facet`
 * (4031700) may build, a stage over its memory limit (ExceededMemoryLimit 146, QueryExceededMemoryLimitNoDiskUseAllowed
 * 292): stages have memory limits (https://www.mongodb.com/docs/manual/core/aggregation-pipeline-limits/). The
 * request's shape is what is too large (the join budget keeps legitimate reads far below), so it is a 400, not a
 * 500. A result document over the 16 MB BSON limit (BSONObjectTooLarge, 10334) is map-mongo-error's
 * DocumentTooLargeError.
 */
const SIZE_ERRORS = new Set<unknown>([4568, 4031700, 146, 292, 'ExceededMemoryLimit', 'QueryExceededMemoryLimitNoDiskUseAllowed']);

/**
 * The server's MaxTimeMSExpired (code 50, also as a `codeName`) as a ReadLimitError('time'), its size errors
 * (SIZE_ERRORS) as a ReadLimitError('size'), an unreachable database as an EngineUnavailableError; any other
 * error as is.
 *
 * @example
 * try { await cursor.toArray() } catch (e) { throw mapReadLimit(e, 1000) }
 */
export function mapReadLimit(error: unknown, maxTimeMS: number): unknown {
  const e = error as { code?: unknown; codeName?: unknown } | null;
  if (e?.code === 50 || e?.codeName === 'MaxTimeMSExpired') return new ReadLimitError('time', maxTimeMS);
  if (SIZE_ERRORS.has(e?.code) || SIZE_ERRORS.has(e?.codeName)) return new ReadLimitError('size', MONGODB_MAX_DOCUMENT_BYTES);
  return mapUnavailable(error);
}

/**
 * The `maxTimeMS` option of a read: the engine's option, else the default; none for 0. Inside a read budget
 * (engine/read-budget: the document service's read of one request), what is left of it, so that all the
 * aggregates, counts and finds of one request share one `maxTimeMS`; with nothing left, the ReadLimitError the
 * server's MaxTimeMSExpired would give, before anything is sent.
 *
 * @example
 * timeLimitOption(1000) // { maxTimeMS: 1000 }, or what is left of the request's 1000 ms
 */
export function timeLimitOption(maxTimeMS: number | undefined): { maxTimeMS?: number } {
  const ms = maxTimeMS ?? DEFAULT_MAX_TIME_MS;
  if (ms <= 0) return {};
  const left = Math.ceil(remainingTime(ms));
  if (left <= 0) throw new ReadLimitError('time', ms);
  return { maxTimeMS: left };
}

/**
 * Runs a read, its MaxTimeMSExpired or size error turned into the engine's ReadLimitError ({@link mapReadLimit}).
 *
 * @example
 * await withReadLimits(options.maxTimeMS, () => cursor.toArray());
 */
export async function withReadLimits<T>(maxTimeMS: number | undefined, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw mapReadLimit(error, maxTimeMS ?? DEFAULT_MAX_TIME_MS);
  }
}
