import type { Filter, Pipeline } from '../engine/types';
import { ValidationError } from '../errors';
import type { FilterNode, Pagination, Query } from '../query/types';
import type { ContentType, Registry } from '../schema/types';
import { createContext, rootScope, rootSourceLocale, type CompileContext, type SourceLocale, type Stage } from './compile-context';
import { compileFilters } from './compile-filters';
import { compilePopulate } from './compile-populate';
import { compileProjection } from './compile-projection';
import { compileSort } from './compile-sort';
import { countUnion, numberRows, POSITION_FIELD } from './page-result';
import { CURSOR_FIELD } from './reserved-fields';

/** What a read's stages start from: the compile context, the locale scope of its rows and their `$match` scope. */
export interface ReadRoot {
  readonly ctx: CompileContext;
  readonly source: SourceLocale;
  readonly scope: Filter;
}

/** A locale filter (`filters[locale][$eq]=fr`) replaces the locale restriction of the request. */
function filtersLocale(node: FilterNode | undefined): boolean {
  if (!node) return false;
  if (node.type === 'scalar') return node.field === 'locale';
  if (node.type === 'and' || node.type === 'or') return node.children.some(filtersLocale);
  return node.type === 'not' ? filtersLocale(node.child) : false;
}

/**
 * The compile context of a read (its status, requested locale and join budget), the locale scope of its rows and
 * their `$match` scope (a locale filter replaces the request's locale restriction).
 */
export function readRoot(registry: Registry, ct: ContentType, query: Query): ReadRoot {
  const requested = ct.localized ? (query.locale ?? registry.i18n.defaultLocale) : undefined;
  const locale = filtersLocale(query.filters) && ct.localized ? '*' : requested;
  return {
    ctx: createContext(registry, query.status, requested, query.maxJoinedRows),
    source: rootSourceLocale(ct, locale),
    scope: rootScope(ct, query.status, locale),
  };
}

/** `{ ...a, ...b }` when their keys differ, `{ $and: [a, b] }` otherwise: no condition is ever overwritten. */
function both(a: Filter, b: Filter): Filter {
  if (Object.keys(b).length === 0) return a;
  if (Object.keys(a).length === 0) return b;
  return Object.keys(b).some((k) => k in a) ? { $and: [a, b] } : { ...a, ...b };
}

/** The match stages (scope + match + filters, relation filter lookups in between): what the total counts. */
function matchStages(r: ReadRoot, ct: ContentType, query: Query, match: Filter): Stage[] {
  const parts = matchParts(r, ct, query);
  return [parts.first(match), ...parts.after];
}

/**
 * The match stages of a read in two parts: the first `$match` (the scope, the given match, and the query's
 * filters when they need no lookup) and the stages after it (relation filters), which do not depend on the match.
 */
function matchParts(r: ReadRoot, ct: ContentType, query: Query): { first(match: Filter): Stage; after: Stage[] } {
  const filter = query.filters ? compileFilters(r.ctx, ct, query.filters, r.source) : undefined;
  if (!filter) return { first: (match) => ({ $match: both(r.scope, match) }), after: [] };
  if (filter.lookups.length === 0) return { first: (match) => ({ $match: both(both(r.scope, match), filter.match) }), after: [] };
  return { first: (match) => ({ $match: both(r.scope, match) }), after: [...filter.lookups, { $match: filter.match }, { $unset: filter.temps }] };
}

/** The sort stages (relation sort keys, `$sort`) and what to unset once the rows are in order. */
function sortParts(r: ReadRoot, ct: ContentType, query: Query): { stages: Stage[]; sort: Record<string, 1 | -1>; unset: Stage[] } {
  const sort = compileSort(r.ctx, ct, query.sort, r.source);
  return { stages: [...sort.stages, { $sort: sort.sort }], sort: sort.sort, unset: sort.temps.length > 0 ? [{ $unset: sort.temps }] : [] };
}

function pageStages(r: ReadRoot, ct: ContentType, query: Query, keep: readonly string[] = []): Stage[] {
  const stages = compilePopulate(r.ctx, ct, query.populate, r.source);
  const project = compileProjection(query.fields, query.populate, keep);
  return project ? [...stages, project] : stages;
}

/**
 * The rows a page skips and keeps. `$skip` and `$limit` take a positive 64-bit integer
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/skip/); the query parser refuses anything
 * past `Number.MAX_SAFE_INTEGER` (lib/query/parse-pagination), and so does this for pages built by host code.
 */
function pageWindow(p: Pagination): { skip: number; limit: number } {
  const skip = p.kind === 'offset' ? p.start : p.kind === 'page' ? (p.page - 1) * p.pageSize : 0;
  // A cursor page reads one row more: the one that says whether there is a next page (documents/read-documents).
  const limit = p.kind === 'offset' ? p.limit : p.kind === 'page' ? p.pageSize : p.limit + 1;
  if (!Number.isSafeInteger(skip) || skip < 0 || !Number.isSafeInteger(limit) || limit < 1) {
    throw new ValidationError(`Invalid pagination: the rows skipped (${skip}) and the page size (${limit}) must be integers from 0 (1 for the size) to ${Number.MAX_SAFE_INTEGER}`);
  }
  return { skip, limit };
}

/**
 * The stages of a cursor page (lib/query/parse-cursor): the keyset range `$match` after the cursor's position
 * (after the match stages: MongoDB merges adjacent `$match`es and answers the range from an index on the sort keys,
 * https://www.mongodb.com/docs/manual/core/aggregation-pipeline-optimization/ "$match + $match Coalescence"; not
 * in the count, which is the query's total), and the `__cur` array of each page row's sort key values, read by
 * findMany for `nextCursor` (a missing value is null in an array expression, as it sorts).
 */
function cursorStages(r: ReadRoot, ct: ContentType, p: Pagination): { after: Stage[]; values: Stage[]; keep: string[] } {
  if (p.kind !== 'cursor') return { after: [], values: [], keep: [] };
  const after = p.after ? compileFilters(r.ctx, ct, p.after, r.source) : undefined;
  return {
    after: after ? [...after.lookups, { $match: after.match }, ...(after.temps.length > 0 ? [{ $unset: after.temps }] : [])] : [],
    values: [{ $addFields: { [CURSOR_FIELD]: p.keys.map((key) => `$${key}`) } }],
    keep: [CURSOR_FIELD],
  };
}

/**
 * Compiles a list read into ONE pipeline whose result documents are the page rows, each its own document, plus
 * one `{ __total }` document when `pagination.withCount` (see {@link readPage} to split them):
 * `[$match, ...filter lookups, ...sort keys, $sort, $skip, $limit, $setWindowFields (__pos), $unset keys,
 * ...populate, $project, $unionWith { same collection: [$match, ...filter lookups, $count: '__total'] }]`.
 * No document holds the whole page: MongoDB caps every document at 16 MB
 * (https://www.mongodb.com/docs/manual/reference/limits/), the single output document of a `$facet` included
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/facet/). `options.match` narrows the scope.
 *
 * @example
 * const { rows, total } = readPage(await engine.aggregate('articles', compileFind(registry, article, query)), true);
 */
export function compileFind(registry: Registry, contentType: ContentType, query: Query, options: { match?: Filter } = {}): Pipeline {
  const r = readRoot(registry, contentType, query);
  const { skip, limit } = pageWindow(query.pagination);
  const match = matchStages(r, contentType, query, options.match ?? {});
  const sort = sortParts(r, contentType, query);
  const cursor = cursorStages(r, contentType, query.pagination);
  const page = [...(skip > 0 ? [{ $skip: skip }] : []), { $limit: limit }, numberRows(sort.sort), ...cursor.values, ...sort.unset];
  const pipeline = [...match, ...cursor.after, ...sort.stages, ...page, ...pageStages(r, contentType, query, [POSITION_FIELD, ...cursor.keep])];
  return query.pagination.withCount ? [...pipeline, countUnion(contentType.collectionName, match)] : pipeline;
}

/**
 * Compiles a one-document read (findOne, single types, the entry returned by a write):
 * `[$match (query scope + match), ...filters, $sort, $limit: 1, ...populate, $project]`. Pagination is ignored.
 * `page`: the stages of {@link compileFindOnePage} for the same registry, type and query, compiled earlier.
 *
 * @example
 * const [row] = await engine.aggregate('articles', compileFindOne(registry, article, query, { documentId }));
 */
export function compileFindOne(registry: Registry, contentType: ContentType, query: Query, match: Filter, page?: Pipeline): Pipeline {
  const parts = compileFindOneParts(registry, contentType, query, page);
  return [parts.first(match), ...parts.rest];
}

/** {@link compileFindOne} in two parts ({@link compileFindOneParts}). */
export interface FindOneParts {
  /** The first `$match`: the query's scope and `match` (and its filters when they need no lookup). */
  first(match: Filter): Stage;
  /** Every stage after it: they do not depend on the match. */
  readonly rest: Pipeline;
}

/**
 * {@link compileFindOne} for a caller that compiles a query once and reads many documents with it (one per
 * documentId): `[parts.first(match), ...parts.rest]` is `compileFindOne(registry, contentType, query, match, page)`.
 *
 * @example
 * const parts = compileFindOneParts(registry, article, query);
 * const pipeline = [parts.first({ documentId }), ...parts.rest];
 */
export function compileFindOneParts(registry: Registry, contentType: ContentType, query: Query, page?: Pipeline): FindOneParts {
  const r = readRoot(registry, contentType, query);
  const sort = sortParts(r, contentType, query);
  const match = matchParts(r, contentType, query);
  return { first: match.first, rest: [...match.after, ...sort.stages, ...sort.unset, { $limit: 1 }, ...(page ?? pageStages(r, contentType, query))] };
}

/**
 * The stages compileFindOne runs on the document it found (populate, then projection): they depend on the query
 * only, not on the match, so a caller may compile them once per query and pass them to compileFindOne.
 *
 * @example
 * const page = compileFindOnePage(registry, article, query);
 * compileFindOne(registry, article, query, { documentId }, page);
 */
export function compileFindOnePage(registry: Registry, contentType: ContentType, query: Query): Pipeline {
  return pageStages(readRoot(registry, contentType, query), contentType, query);
}

/**
 * The stages giving the rows a read populates, before any populate: compileFind's match, sort and page
 * (`one: false`), or compileFindOne's match, sort and `$limit: 1` (`one: true`). The join count of a read
 * (documents/join-budget) starts from them.
 *
 * @example
 * compileFindRows(registry, article, query, { one: true, match: { documentId } })
 * // [{ $match: { _status: 'published', locale: 'en', documentId } }, { $sort: { id: 1 } }, { $limit: 1 }]
 */
export function compileFindRows(registry: Registry, contentType: ContentType, query: Query, options: { one: boolean; match?: Filter }): Pipeline {
  const r = readRoot(registry, contentType, query);
  const match = matchStages(r, contentType, query, options.match ?? {});
  const sort = sortParts(r, contentType, query);
  if (options.one) return [...match, ...sort.stages, ...sort.unset, { $limit: 1 }];
  const { skip, limit } = pageWindow(query.pagination);
  const cursor = cursorStages(r, contentType, query.pagination);
  return [...match, ...cursor.after, ...sort.stages, ...(skip > 0 ? [{ $skip: skip }] : []), { $limit: limit }, ...sort.unset];
}
