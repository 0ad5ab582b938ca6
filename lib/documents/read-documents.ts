import type { AggregateOptions, Engine, Filter, Pipeline } from '../engine';
import { formatDocument, type Selection } from '../format';
import { compileFind, compileFindOne, compileFindOnePage, readPage } from '../pipeline';
import { deepFreeze } from '../query';
import type { Pagination, Query } from '../query/types';
import type { ContentType, Registry } from '../schema';
import { checkJoinBudget } from './join-budget';
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

/** The join budget checked before the read runs (documents/join-budget), a read over it answered as a 400. */
async function checkBudget(registry: Registry, engine: Engine, ct: ContentType, query: Query, one: boolean, match?: Filter): Promise<void> {
  try {
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
  | { start: number; limit: number; total?: number };

export interface FindManyResult {
  data: Row[];
  pagination: PaginationMeta;
}

function paginationMeta(p: Pagination, total: number | undefined): PaginationMeta {
  if (p.kind === 'offset') return p.withCount ? { start: p.start, limit: p.limit, total: total ?? 0 } : { start: p.start, limit: p.limit };
  if (!p.withCount) return { page: p.page, pageSize: p.pageSize };
  const t = total ?? 0;
  return { page: p.page, pageSize: p.pageSize, pageCount: Math.ceil(t / p.pageSize), total: t };
}

/** The stored rows of a page, before formatting (read-only: they may share values with storage). */
export interface StoredPage {
  readonly registry: Registry;
  readonly uid: string;
  readonly rows: readonly Row[];
  readonly selection: Selection;
}

const STORED_PAGE = Symbol('content-router.storedPage');

/**
 * The stored rows behind a `findMany` result, as long as its `data` was neither read nor replaced: a response can
 * then be written straight from them (see lib/format/compile-document-json) with the same bytes as `data`'s JSON.
 */
export function storedPageOf(result: FindManyResult): StoredPage | undefined {
  return (result as FindManyResult & { [STORED_PAGE]?: () => StoredPage | undefined })[STORED_PAGE]?.();
}

/** `data` is formatted on first access (and then kept): a response written from the stored rows never formats. */
function pageResult(page: StoredPage, pagination: PaginationMeta): FindManyResult {
  let data: Row[] | undefined;
  const result = {
    get data(): Row[] {
      return (data ??= page.rows.map((row) => formatDocument(page.registry, page.uid, row, page.selection)));
    },
    set data(value: Row[]) {
      data = value;
    },
    pagination,
  };
  Object.defineProperty(result, STORED_PAGE, { value: () => (data === undefined ? page : undefined) });
  return result;
}

interface Compiled {
  readonly registry: Registry;
  readonly ct: ContentType;
  readonly pipeline: Pipeline;
}

const listPipelines = new WeakMap<Query, Compiled>();
const findOnePages = new WeakMap<Query, Compiled>();

/**
 * `compile()`, kept with a frozen query (the HTTP routes' parsed queries are frozen and shared, see
 * lib/query/query-cache) and frozen in turn, so that the same query string compiles once and the engine sees the
 * same stage objects again (the memory engine keeps what it compiled from frozen stages). Queries that are not
 * frozen (built by host code, which may change them) compile every time.
 */
function compiledFor(cache: WeakMap<Query, Compiled>, registry: Registry, ct: ContentType, query: Query, compile: () => Pipeline): Pipeline {
  if (!Object.isFrozen(query)) return compile();
  const found = cache.get(query);
  if (found && found.registry === registry && found.ct === ct) return found.pipeline;
  const pipeline = deepFreeze(compile());
  cache.set(query, { registry, ct, pipeline });
  return pipeline;
}

/** Runs a list query as ONE aggregation (page rows, one document each, and the total); `data` is the formatted page. */
export async function findMany(registry: Registry, engine: Engine, ct: ContentType, query: Query, match?: Filter): Promise<FindManyResult> {
  const pipeline = match
    ? compileFind(registry, ct, query, { match })
    : compiledFor(listPipelines, registry, ct, query, () => compileFind(registry, ct, query));
  // List reads may sort more than MongoDB's 100 MB in-memory limit for a blocking stage: they may spill to disk
  // (https://www.mongodb.com/docs/manual/reference/command/aggregate/, `allowDiskUse`; the default from 6.0 on).
  const options = { ...readOptions(query), allowDiskUse: true };
  await checkBudget(registry, engine, ct, query, false, match);
  const docs = await loggedRead(ct.collectionName, pipeline, () => aggregate(engine, ct.collectionName, pipeline, options));
  const { rows, total } = readPage(docs, query.pagination.withCount);
  return pageResult({ registry, uid: ct.uid, rows, selection: query }, paginationMeta(query.pagination, total));
}

/** Runs a one-document query as ONE aggregation; null when nothing matches. */
export async function findOne(registry: Registry, engine: Engine, ct: ContentType, query: Query, match: Filter): Promise<Row | null> {
  const page = compiledFor(findOnePages, registry, ct, query, () => compileFindOnePage(registry, ct, query));
  const pipeline = compileFindOne(registry, ct, query, match, page);
  await checkBudget(registry, engine, ct, query, true, match);
  const rows = await loggedRead(ct.collectionName, pipeline, () => aggregate(engine, ct.collectionName, pipeline, readOptions(query)));
  const row = rows[0];
  return row ? formatDocument(registry, ct.uid, row, query) : null;
}
