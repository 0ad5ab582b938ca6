import type { Ability } from '../auth/types';
import { OPEN_ABILITY } from '../auth/types';
import { PaginationError, ValidationError } from '../errors';
import { normalizeParams, parseQuery, type RestLimits } from '../query';
import type { Query } from '../query/types';
import type { ContentType, Registry } from '../schema';

/** No page limit: Strapi's Document Service returns every matching document unless told otherwise. */
const UNLIMITED = Number.MAX_SAFE_INTEGER;
const TOP_LEVEL_PAGINATION = ['page', 'pageSize', 'start', 'limit'] as const;

/** Strapi's top-level `start`/`limit` (`page`/`pageSize`) go into `pagination`; both at once is a 400 as in REST. */
function liftPagination(params: Record<string, unknown>): Record<string, unknown> {
  const top = TOP_LEVEL_PAGINATION.filter((key) => params[key] !== undefined);
  if (top.length === 0) return params;
  if (params.pagination !== undefined) {
    throw new PaginationError('Invalid pagination attributes. Give either pagination or start/limit (page/pageSize), not both');
  }
  const rest: Record<string, unknown> = {};
  const pagination: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if ((TOP_LEVEL_PAGINATION as readonly string[]).includes(key)) pagination[key] = value;
    else rest[key] = value;
  }
  return { ...rest, pagination };
}

export interface ParamsContext {
  readonly registry: Registry;
  readonly ct: ContentType;
  readonly rest: RestLimits;
  readonly ability?: Ability;
}

/**
 * A Document Service parameter object -> the validated Query the REST query string would give (same parsers, same
 * errors), with Strapi's Document Service defaults: the draft unless `status: 'published'`, and no page limit.
 *
 * @example
 * paramsToQuery(ctx, { filters: { title: { $eq: 'x' } }, populate: ['author'], status: 'published' }, 'find');
 */
export function paramsToQuery(ctx: ParamsContext, params: unknown, action: 'find' | 'findOne' | 'write'): Query {
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
    throw new ValidationError('The parameters must be an object ({ filters, fields, populate, sort, pagination, locale, status })');
  }
  const normalized = liftPagination(normalizeParams((params ?? {}) as object));
  const withStatus = normalized.status === undefined ? { ...normalized, status: 'draft' } : normalized;
  const rest = { defaultLimit: UNLIMITED, maxLimit: UNLIMITED, maxDepth: ctx.rest.maxDepth };
  return parseQuery({ registry: ctx.registry, contentType: ctx.ct, rawQuery: '', params: withStatus, context: ctx.ability ?? OPEN_ABILITY, rest, action });
}

/**
 * A plain object (not an array, not null).
 *
 * @example
 * isParamsObject({ documentId: 'x' }); // true
 */
export function isParamsObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
