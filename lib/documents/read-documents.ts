import { withReadBudget, type AggregateOptions, type Engine, type Filter, type Pipeline } from '../engine';
import { compileDocumentBytes, formatDocument, type RowWrite } from '../format';
import { compileFind, compileFindOneParts, compileFindOnePage, CURSOR_FIELD, readPage, type FindOneParts } from '../pipeline';
import { createIdentityCache, deepFreeze } from '../util/frozen';
import type { Pagination, Query } from '../query/types';
import type { ContentType, Registry } from '../schema';
import { checkFilterBudget, filterBudgetApplies } from './filter-budget';
import { checkJoinBudget, joinBudgetApplies } from './join-budget';
import { loggedRead } from './log';
import { populateMeter, readLimitError } from './populate-budget';

type Row = Record<string, unknown>;

/**
 * The options of a read's aggregate: read-only (the rows are only formatted, and formatDocument copies every
 * stored value it keeps) and the populate budget (documents/populate-budget), counted by the engine while joining
 * and on every result row (a list's total document holds no populated row).
 */
function readOptions(query: Query): AggregateOptions {
  const onRow = populateMeter(query);
  const max = query.maxJoinedRows;
  return { readOnly: true, ...(max === undefined ? {} : { maxJoinedRows: max }), ...(onRow ? { onRow } : {}) };
}

/**
 * The join budget checked before the read runs (documents/join-budget, filter-budget), a read over it answered as
 * a 400; undefined (nothing to wait for) when neither has anything to check, as for most reads.
 */
function checkBudget(registry: Registry, engine: Engine, ct: ContentType, query: Query, one: boolean, match?: Filter): Promise<void> | undefined {
  try {
    if (!filterBudgetApplies(registry, ct, query) && !joinBudgetApplies(registry, ct, query)) return undefined;
  } catch (error) {
    throw readLimitError(error);
  }
  return checkBothBudgets(registry, engine, ct, query, one, match);
}

async function checkBothBudgets(registry: Registry, engine: Engine, ct: ContentType, query: Query, one: boolean, match?: Filter): Promise<void> {
  try {
    await checkFilterBudget(registry, engine, ct, query, one);
    await checkJoinBudget(registry, engine, ct, query, { one, ...(match ? { match } : {}) });
  } catch (error) {
    throw readLimitError(error);
  }
}

/** The engine's read, a read over its limits answered as a 400 ValidationError (populate-budget's readLimitError). */
async function aggregate(engine: Engine, collection: string, pipeline: Pipeline, options: AggregateOptions): Promise<Row[]> {
  try {
    return await engine.aggregate(collection, pipeline, options);
  } catch (error) {
    throw readLimitError(error);
  }
}

export type PaginationMeta =
  | { page: number; pageSize: number; pageCount?: number; total?: number }
  | { start: number; limit: number; total?: number }
  | { limit: number; nextCursor: string | null; total?: number };

export interface FindManyResult {
  data: Row[];
  pagination: PaginationMeta;
}

function paginationMeta(p: Pagination, total: number | undefined, nextCursor: string | null = null): PaginationMeta {
  if (p.kind === 'cursor') return p.withCount ? { limit: p.limit, nextCursor, total: total ?? 0 } : { limit: p.limit, nextCursor };
  if (p.kind === 'offset') return p.withCount ? { start: p.start, limit: p.limit, total: total ?? 0 } : { start: p.start, limit: p.limit };
  if (!p.withCount) return { page: p.page, pageSize: p.pageSize };
  const t = total ?? 0;
  return { page: p.page, pageSize: p.pageSize, pageCount: Math.ceil(t / p.pageSize), total: t };
}

/**
 * What a query compiles to for one registry and content type. Kept with a frozen query (the HTTP routes' parsed
 * queries, lib/query/query-cache) by identity (lib/util/frozen: the query object is the cache key), so that the
 * same query string compiles once: the pipeline is deep-frozen in turn, and the memory engine keeps what it
 * compiled from those frozen stage objects (engine/memory/execution/planner). Not kept for a query that is not frozen
 * (built by host code, which may change it).
 */
export interface CompiledRead {
  readonly registry: Registry;
  readonly ct: ContentType;
  /** The query it was compiled from: the cache key, and the selection (fields, populate) of its responses. */
  readonly query: Query;
  readonly pipeline: Pipeline;
  /** The writer of a v5 document of this selection (format/compileDocumentBytes), compiled on first call. */
  writer(): RowWrite;
}

function compiledRead(registry: Registry, ct: ContentType, query: Query, pipeline: Pipeline): CompiledRead {
  let write: RowWrite | undefined;
  return { registry, ct, query, pipeline, writer: () => (write ??= compileDocumentBytes(registry, ct.uid, query)) };
}

const listReads = createIdentityCache<Query, CompiledRead>();

/** A one-document read compiled once per query: its page stages' CompiledRead, and its pipeline but the match. */
interface OneRead {
  readonly read: CompiledRead;
  readonly parts: FindOneParts;
}

const oneReads = createIdentityCache<Query, OneRead>();

/**
 * The {@link OneRead} of `query`, kept with a frozen query: only the first `$match` (which names the document) is
 * built per read, the stages after it are the same frozen objects for every read of the query (the memory
 * engine's planner keeps what it planned for them, execution/planner's keptPosition).
 */
function oneReadFor(registry: Registry, ct: ContentType, query: Query): OneRead {
  const make = (): OneRead => {
    const frozen = Object.isFrozen(query);
    const page = compileFindOnePage(registry, ct, query);
    const read = compiledRead(registry, ct, query, frozen ? deepFreeze(page) : page);
    const parts = compileFindOneParts(registry, ct, query, read.pipeline);
    if (!frozen) return { read, parts };
    // What every read's first `$match` shares (the scope, the filters) is frozen with the rest.
    deepFreeze(parts.first({}));
    deepFreeze(parts.rest);
    return { read, parts };
  };
  return oneReads.get(query, make, (kept) => kept.read.registry === registry && kept.read.ct === ct);
}

/** A list query's `compile()` as a CompiledRead, kept with a frozen query (see {@link CompiledRead}). */
function listReadFor(registry: Registry, ct: ContentType, query: Query, compile: () => Pipeline): CompiledRead {
  const make = (): CompiledRead => compiledRead(registry, ct, query, Object.isFrozen(query) ? deepFreeze(compile()) : compile());
  return listReads.get(query, make, (kept) => kept.registry === registry && kept.ct === ct);
}

/** The stored rows of a list page, before formatting (read-only: they may share values with storage). */
export interface StoredPage {
  readonly rows: readonly Row[];
  /** The read that gave them: its query is the page's selection, its writer writes each row as `data` would. */
  readonly read: CompiledRead;
}

/**
 * The key of a `findMany` result's stored page (a non-enumerable property: never in its JSON or its keys). Its
 * function gives the page as long as `data` was neither read nor replaced (see {@link storedPageOf}).
 */
const STORED_PAGE: unique symbol = Symbol('content-router.storedPage');

/** A `findMany` result as read-documents makes it: `data` formatted on first access, the stored page behind it. */
interface ListResult extends FindManyResult {
  readonly [STORED_PAGE]: () => StoredPage | undefined;
}

const isListResult = (result: FindManyResult): result is ListResult => STORED_PAGE in result;

/**
 * The stored rows behind a `findMany` result, as long as its `data` was neither read nor replaced (by a lifecycle
 * hook or host code): a response can then be written straight from them (http/send, with the page's
 * `read.writer()`) with the same bytes as `data`'s JSON. Undefined for any other result.
 */
export function storedPageOf(result: FindManyResult): StoredPage | undefined {
  return isListResult(result) ? result[STORED_PAGE]() : undefined;
}

/** `data` is formatted on first access (and then kept): a response written from the stored rows never formats. */
function pageResult(page: StoredPage, pagination: PaginationMeta): ListResult {
  const { registry, ct, query } = page.read;
  let data: Row[] | undefined;
  const result = {
    get data(): Row[] {
      return (data ??= page.rows.map((row) => formatDocument(registry, ct.uid, row, query)));
    },
    set data(value: Row[]) {
      data = value;
    },
    pagination,
  };
  Object.defineProperty(result, STORED_PAGE, { value: () => (data === undefined ? page : undefined) });
  return result as ListResult;
}

/**
 * Runs a list query as ONE aggregation (page rows, one document each, and the total); `data` is the formatted page.
 * Its engine reads (the join budget's, then the read) share one time budget (engine/read-budget: on MongoDB one
 * `maxTimeMS` for them all).
 */
export function findMany(registry: Registry, engine: Engine, ct: ContentType, query: Query, match?: Filter): Promise<FindManyResult> {
  return withReadBudget(engine, () => readList(registry, engine, ct, query, match));
}

async function readList(registry: Registry, engine: Engine, ct: ContentType, query: Query, match?: Filter): Promise<FindManyResult> {
  const read = match
    ? compiledRead(registry, ct, query, compileFind(registry, ct, query, { match }))
    : listReadFor(registry, ct, query, () => compileFind(registry, ct, query));
  const { pipeline } = read;
  // List reads may sort more than MongoDB's 100 MB in-memory limit for a blocking stage: they may spill to disk
  // (https://www.mongodb.com/docs/manual/reference/command/aggregate/, `allowDiskUse`; the default from 6.0 on).
  const options = { ...readOptions(query), allowDiskUse: true };
  const checking = checkBudget(registry, engine, ct, query, false, match);
  if (checking) await checking;
  const docs = await loggedRead(ct.collectionName, pipeline, () => aggregate(engine, ct.collectionName, pipeline, options));
  const { rows, total } = readPage(docs, query.pagination.withCount);
  const p = query.pagination;
  if (p.kind !== 'cursor') return pageResult({ rows, read }, paginationMeta(p, total));
  // The page read one row more than its limit: when it came, there is a next page, after this page's last row.
  const kept = rows.slice(0, p.limit);
  const last = rows.length > p.limit ? kept[kept.length - 1] : undefined;
  return pageResult({ rows: kept, read }, paginationMeta(p, total, last ? p.next(last[CURSOR_FIELD] as unknown[]) : null));
}

/** Runs a one-document query as ONE aggregation; null when nothing matches. One time budget, as {@link findMany}. */
export async function findOne(registry: Registry, engine: Engine, ct: ContentType, query: Query, match: Filter): Promise<Row | null> {
  const stored = await findStoredOne(registry, engine, ct, query, match);
  return stored && formatDocument(registry, ct.uid, stored.row, query);
}

/**
 * A one-document read's stored row, before formatting (read-only: it may share values with storage), and the read
 * that gave it: its query is the row's selection, its writer writes the row as the formatted document's JSON.
 */
export interface StoredDocument {
  readonly row: Row;
  readonly read: CompiledRead;
}

/**
 * {@link findOne}'s read without the formatting: http/send writes the answer straight from the stored row with the
 * read's writer (the bytes `JSON.stringify` would give of the formatted document), as it writes list pages.
 */
export function findStoredOne(registry: Registry, engine: Engine, ct: ContentType, query: Query, match: Filter): Promise<StoredDocument | null> {
  return withReadBudget(engine, () => readOne(registry, engine, ct, query, match));
}

async function readOne(registry: Registry, engine: Engine, ct: ContentType, query: Query, match: Filter): Promise<StoredDocument | null> {
  const { read, parts } = oneReadFor(registry, ct, query);
  const pipeline = [parts.first(match), ...parts.rest];
  const checking = checkBudget(registry, engine, ct, query, true, match);
  if (checking) await checking;
  const rows = await loggedRead(ct.collectionName, pipeline, () => aggregate(engine, ct.collectionName, pipeline, readOptions(query)));
  const row = rows[0];
  return row ? { row, read } : null;
}
