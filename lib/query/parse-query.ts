import type { ContentType, Registry } from '../schema';
import { assertNoTopLevelPagination, parsePagination, type RestLimits } from './parse-pagination';
import { parseCursor } from './parse-cursor';
import { parseFields } from './parse-fields';
import { filtersReference, parseFilters } from './parse-filters';
import { parsePopulate } from './parse-populate';
import { parseRawQuery } from './parse-raw-query';
import { contentTypeTarget } from './populate-star';
import type { ParseScope, QueryParam } from './parse-scope';
import { parseSort } from './parse-sort';
import type { Pagination, Query, QueryContext, Status } from './types';

/** The option `rest.populatePagination` (default true): false answers Strapi 5's 400 to populate `start`/`limit`/`withCount`. */
export interface PopulatePagination {
  readonly populatePagination?: boolean;
}

/** What `parseQuery` needs to know about the request. */
export interface ParseQueryInput {
  readonly registry: Registry;
  readonly contentType: ContentType;
  /** The raw query string, without the '?'. */
  readonly rawQuery: string;
  /** The parameters already parsed (parseRawQuery, or normalizeParams of an object): `rawQuery` is then ignored. */
  readonly params?: Readonly<Record<string, unknown>>;
  readonly context: QueryContext;
  readonly rest: RestLimits & PopulatePagination;
  /** `write`: the query of a create/update, where only fields, populate, locale and status apply. */
  readonly action: 'find' | 'findOne' | 'write';
}

/** A repeated key (`locale=fr&locale=en`) counts by its first value. */
function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function parseStatus(ct: ContentType, raw: unknown): Status {
  return ct.draftAndPublish && present(raw) && first(raw) !== 'published' ? 'draft' : 'published';
}

function parseLocale(input: ParseQueryInput, raw: unknown, filterOnLocale: boolean): string | undefined {
  if (!input.contentType.localized) return undefined;
  const locale = first(raw);
  if (typeof locale === 'string' && locale !== '') return locale;
  return filterOnLocale ? '*' : input.registry.i18n.defaultLocale;
}

/**
 * Raw query string -> validated, typed Query for one content type and caller. Checks run in Strapi's order
 * (filters, sort, fields, populate, then pagination) and the first problem is thrown: a ValidationError
 * (`Invalid key ...` with `{ key, path, source: 'query', param }`, or Strapi's message for malformed
 * parameters) or a PaginationError. Unknown top-level parameters are ignored, as Strapi does.
 *
 * @example
 * const query = parseQuery({ registry, contentType: article, rawQuery: 'filters[views][$gt]=10&sort=title:desc',
 *   context: { canFind: () => true }, rest: { defaultLimit: 25, maxLimit: 100 }, action: 'find' });
 */
export function parseQuery(input: ParseQueryInput): Query {
  const raw = input.params ?? parseRawQuery(input.rawQuery);
  const ct = input.contentType;
  const populatePage = input.rest.populatePagination === false ? {} : { populatePage: { maxLimit: input.rest.maxLimit } };
  const scope = (param: QueryParam): ParseScope => ({ registry: input.registry, context: input.context, param, maxDepth: input.rest.maxDepth, ...populatePage });
  const reads = input.action !== 'write';
  const filters = reads && present(raw.filters) ? parseFilters(scope('filters'), ct.attributes, raw.filters) : undefined;
  const sort = reads && present(raw.sort) ? parseSort(scope('sort'), ct.attributes, raw.sort) : [];
  const fields = present(raw.fields) ? parseFields(scope('fields'), ct.attributes, raw.fields) : null;
  const populate = present(raw.populate) ? parsePopulate(scope('populate'), contentTypeTarget(ct), raw.populate) : {};
  const locale = parseLocale(input, raw.locale, filtersReference(filters, 'locale'));
  const status = parseStatus(ct, raw.status);
  let pagination: Pagination = { kind: 'page', page: 1, pageSize: input.rest.defaultLimit, withCount: true };
  if (input.action === 'find') {
    assertNoTopLevelPagination(raw);
    const parsed = parsePagination(raw.pagination, input.rest);
    pagination = parsed.kind !== 'cursor-request' ? parsed : parseCursor({
      registry: input.registry, contentType: ct, sort, filters, locale, status, secret: input.rest.cursorSecret, ...parsed,
    });
  }
  const query: { -readonly [K in keyof Query]: Query[K] } = { sort, pagination, fields, populate, status };
  if (filters) query.filters = filters;
  if (locale !== undefined) query.locale = locale;
  if (input.rest.maxJoinedRows !== undefined) query.maxJoinedRows = input.rest.maxJoinedRows;
  return query;
}
