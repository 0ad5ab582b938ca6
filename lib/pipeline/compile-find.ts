import type { Filter, Pipeline } from '../engine/types';
import type { FilterNode, Query } from '../query/types';
import type { ContentType, Registry } from '../schema/types';
import { createContext, rootScope, rootSourceLocale, type CompileContext, type SourceLocale, type Stage } from './compile-context';
import { compileFilters } from './compile-filters';
import { compilePopulate } from './compile-populate';
import { compileProjection } from './compile-projection';
import { compileSort } from './compile-sort';

interface Root {
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

function root(registry: Registry, ct: ContentType, query: Query): Root {
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

/** `$match` (scope + match + filters, relation filter lookups in between) then the sort stages. */
function matchAndSort(r: Root, ct: ContentType, query: Query, match: Filter): Stage[] {
  const first = both(r.scope, match);
  const stages: Stage[] = [];
  if (query.filters) {
    const filter = compileFilters(r.ctx, ct, query.filters, r.source);
    if (filter.lookups.length === 0) stages.push({ $match: both(first, filter.match) });
    else stages.push({ $match: first }, ...filter.lookups, { $match: filter.match }, { $unset: filter.temps });
  } else {
    stages.push({ $match: first });
  }
  const sort = compileSort(r.ctx, ct, query.sort, r.source);
  stages.push(...sort.stages, { $sort: sort.sort });
  if (sort.temps.length > 0) stages.push({ $unset: sort.temps });
  return stages;
}

function pageStages(r: Root, ct: ContentType, query: Query): Stage[] {
  const stages = compilePopulate(r.ctx, ct, query.populate, r.source);
  const project = compileProjection(query.fields, query.populate);
  return project ? [...stages, project] : stages;
}

/**
 * Compiles a list read into ONE pipeline:
 * `[$match, ...filter lookups, $sort, $facet { data: [$skip, $limit, ...populate, $project], total: [{ $count: 'count' }] }]`.
 * The result is one row `{ data: Row[], total: [{ count }] }`; `total` is ABSENT when
 * `pagination.withCount` is false. Read it as `total[0]?.count ?? 0`: MongoDB gives `[]` when nothing matched,
 * mingo `[{ count: 0 }]`. `options.match` narrows the scope.
 *
 * @example
 * const [page] = await engine.aggregate('articles', compileFind(registry, article, query));
 * const total = page.total?.[0]?.count ?? 0;
 */
export function compileFind(registry: Registry, contentType: ContentType, query: Query, options: { match?: Filter } = {}): Pipeline {
  const r = root(registry, contentType, query);
  const p = query.pagination;
  const skip = p.kind === 'offset' ? p.start : (p.page - 1) * p.pageSize;
  const limit = p.kind === 'offset' ? p.limit : p.pageSize;
  const facet: Record<string, Stage[]> = { data: [{ $skip: skip }, { $limit: limit }, ...pageStages(r, contentType, query)] };
  if (p.withCount) facet.total = [{ $count: 'count' }];
  return [...matchAndSort(r, contentType, query, options.match ?? {}), { $facet: facet }];
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
  const r = root(registry, contentType, query);
  return [...matchAndSort(r, contentType, query, match), { $limit: 1 }, ...(page ?? pageStages(r, contentType, query))];
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
  return pageStages(root(registry, contentType, query), contentType, query);
}
