import type { Engine, Filter } from '../engine';
import { formatDocument } from '../format';
import { compileFind, compileFindOne } from '../pipeline';
import type { Pagination, Query } from '../query/types';
import type { ContentType, Registry } from '../schema';
import { logPipeline } from './log';

type Row = Record<string, unknown>;

/** The rows are only formatted, and formatDocument copies every stored value it keeps. */
const READ_ONLY = { readOnly: true } as const;

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

/** Runs a list query as ONE aggregation and formats the page. */
export async function findMany(registry: Registry, engine: Engine, ct: ContentType, query: Query, match?: Filter): Promise<FindManyResult> {
  const pipeline = compileFind(registry, ct, query, match ? { match } : undefined);
  const started = Date.now();
  const [result] = (await engine.aggregate(ct.collectionName, pipeline, READ_ONLY)) as [{ data?: Row[]; total?: { count: number }[] }?];
  logPipeline(ct.collectionName, pipeline, started);
  const rows = result?.data ?? [];
  const total = result?.total?.[0]?.count ?? (query.pagination.withCount ? 0 : undefined);
  return {
    data: rows.map((row) => formatDocument(registry, ct.uid, row, query)),
    pagination: paginationMeta(query.pagination, total),
  };
}

/** Runs a one-document query as ONE aggregation; null when nothing matches. */
export async function findOne(registry: Registry, engine: Engine, ct: ContentType, query: Query, match: Filter): Promise<Row | null> {
  const pipeline = compileFindOne(registry, ct, query, match);
  const started = Date.now();
  const rows = await engine.aggregate(ct.collectionName, pipeline, READ_ONLY);
  logPipeline(ct.collectionName, pipeline, started);
  const row = rows[0];
  return row ? formatDocument(registry, ct.uid, row, query) : null;
}
