import { PaginationError, ValidationError } from '../errors';
import { isPlainObject } from './as-list';
import type { Pagination } from './types';

/** The REST limits (`api.rest.defaultLimit` / `api.rest.maxLimit` in Strapi). */
export interface RestLimits {
  readonly defaultLimit: number;
  readonly maxLimit: number;
  /** The most relations/components a populate tree or a sort path may go through; default 10. */
  readonly maxDepth?: number;
  /** The most rows populate may join in one read (Query.maxJoinedRows); none when undefined. */
  readonly maxJoinedRows?: number;
  /** Whether `pagination[cursor]` selects cursor pagination (default true); false ignores it, as Strapi 5 does. */
  readonly cursorPagination?: boolean;
  /** The key cursors are signed with (`rest.cursorSecret`); a random key of this process when undefined. */
  readonly cursorSecret?: string | Uint8Array;
}

/** `pagination[cursor]` read, before it is checked against the query (lib/query/parse-cursor). */
export interface CursorRequest {
  readonly kind: 'cursor-request';
  readonly cursor: string;
  readonly limit: number;
  readonly withCount: boolean;
}

const MIXED = 'Cannot use both page & offset pagination in the same query';
const WITH_COUNT = 'Invalid withCount parameter. Expected "t","1","true","false","0","f"';

/** lodash `toNumber` as Strapi applies it to query values; a repeated key (an array) counts by its first value. */
function toNumber(value: unknown): number {
  const v = Array.isArray(value) ? (value[0] as unknown) : value;
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return Number(v.trim());
  if (typeof v === 'boolean') return v ? 1 : 0;
  return Number.NaN;
}

function parseWithCount(pagination: Record<string, unknown>, byDefault = true): boolean {
  if (!Object.prototype.hasOwnProperty.call(pagination, 'withCount')) return byDefault;
  const value = pagination.withCount;
  if (typeof value === 'boolean') return value;
  if (['true', 't', '1'].includes(value as string)) return true;
  if (['false', 'f', '0'].includes(value as string)) return false;
  throw new ValidationError(WITH_COUNT);
}

/** Strapi's `convertStartQueryParams` / `convertLimitQueryParams` checks, with their messages. */
function checkStartLimit(start: number, limit: number): void {
  if (!Number.isInteger(start) || start < 0) throw new ValidationError(`convertStartQueryParams expected a positive integer got ${start}`);
  if (!Number.isInteger(limit) || limit < 0) throw new ValidationError(`convertLimitQueryParams expected a positive integer got ${limit}`);
}

/**
 * The rows skipped must be an exact integer MongoDB takes: `$skip` wants a positive 64-bit integer
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/skip/; `1e20` is refused by the server),
 * and past `Number.MAX_SAFE_INTEGER` a JavaScript number is no longer exact. A 400, never a 500.
 */
function checkSafe(name: string, value: number): void {
  if (value > Number.MAX_SAFE_INTEGER) {
    throw new ValidationError(`Invalid pagination: ${name} is ${value}, more than the largest supported value ${Number.MAX_SAFE_INTEGER}`);
  }
}

/**
 * Reads the `pagination` parameter as Strapi 5 does: page/pageSize or start/limit (never both), values
 * clamped (`page >= 1`, `pageSize`/`limit >= 1`, `start >= 0`) and capped at `maxLimit`, `withCount`
 * defaulting to true. Anything that is not an object means the default page.
 *
 * @example
 * parsePagination({ page: '2', pageSize: '10' }, { defaultLimit: 25, maxLimit: 100 });
 * // { kind: 'page', page: 2, pageSize: 10, withCount: true }
 */
export function parsePagination(raw: unknown, limits: RestLimits): Pagination | CursorRequest {
  const pagination = isPlainObject(raw) ? raw : {};
  const has = (key: string): boolean => Object.prototype.hasOwnProperty.call(pagination, key);
  const paged = has('page') || has('pageSize');
  const cap = (n: number): number => (n > limits.maxLimit ? limits.maxLimit : n);
  if (limits.cursorPagination !== false && has('cursor')) return cursorRequest(pagination, paged || has('start'), has('limit') ? cap(Math.max(1, toNumber(pagination.limit))) : limits.defaultLimit);
  const offset = has('start') || has('limit');
  if (paged && offset) throw new PaginationError(MIXED);
  if (offset) {
    const limit = has('limit') ? cap(Math.max(1, toNumber(pagination.limit))) : limits.defaultLimit;
    const start = Math.max(0, toNumber(pagination.start || 0));
    checkStartLimit(start, limit);
    checkSafe('pagination[start]', start);
    return { kind: 'offset', start, limit, withCount: parseWithCount(pagination) };
  }
  const page = Math.max(1, toNumber(pagination.page || 1));
  const pageSize = has('pageSize') ? cap(Math.max(1, toNumber(pagination.pageSize))) : limits.defaultLimit;
  checkStartLimit((page - 1) * pageSize, pageSize);
  checkSafe('pagination[page]', page);
  checkSafe('the rows skipped, (pagination[page] - 1) * pagination[pageSize],', (page - 1) * pageSize);
  return { kind: 'page', page, pageSize, withCount: parseWithCount(pagination) };
}

/**
 * `pagination[cursor]` (ours, not Strapi's): `''` for the first page, else a `nextCursor`; `pagination[limit]` the
 * page size (default and cap as offset pagination's), `pagination[withCount]` opt-in (counting reads every
 * matching row). With `page`, `pageSize` or `start` it is a 400 PaginationError, as Strapi answers mixed forms.
 */
function cursorRequest(pagination: Record<string, unknown>, mixed: boolean, limit: number): CursorRequest {
  if (mixed) throw new PaginationError('Cannot use cursor pagination with page or offset pagination in the same query: give pagination[cursor] and pagination[limit] only');
  const cursor = pagination.cursor;
  if (typeof cursor !== 'string') {
    throw new ValidationError('Invalid pagination[cursor]: expected a string (empty for the first page)', { key: 'cursor', path: 'pagination.cursor', source: 'query', param: 'pagination' });
  }
  checkStartLimit(0, limit);
  return { kind: 'cursor-request', cursor, limit, withCount: parseWithCount(pagination, false) };
}

/** v4-style top-level `page`/`pageSize`/`start`/`limit` are refused, as Strapi 5 does. */
export function assertNoTopLevelPagination(query: Record<string, unknown>): void {
  if (['page', 'pageSize', 'start', 'limit'].some((key) => Object.prototype.hasOwnProperty.call(query, key))) {
    throw new PaginationError('Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object');
  }
}

/**
 * How many rows a page reads: its size, and one more for a cursor page (the row that tells whether there is a next
 * page, lib/pipeline/compile-find).
 *
 * @example
 * pageRows({ kind: 'page', page: 3, pageSize: 10, withCount: true }) // 10
 */
export function pageRows(p: Pagination): number {
  if (p.kind === 'cursor') return p.limit + 1;
  return p.kind === 'offset' ? p.limit : p.pageSize;
}
