import type { Engine } from '../engine';
import { compileFind, readPage } from '../pipeline';
import { normalizeParams, parseQuery, parseRawQuery, type RestLimits } from '../query';
import type { Query, QueryContext } from '../query/types';
import { UPLOAD_FILE_UID, type Registry } from '../schema';
import { toFileSelection } from './format-file';
import type { FileSelection } from './types';

/** The `rest` option's defaults, for a media service created without them. */
export const DEFAULT_FILES_LIMITS: RestLimits = Object.freeze({ defaultLimit: 25, maxLimit: 100 });

/** Host code reading the library: every type may be found. */
const ANYONE: QueryContext = Object.freeze({ canFind: () => true });

/** What a files query is parsed with: the model, the REST limits and the caller. */
export interface FilesQueryScope {
  readonly registry: Registry;
  readonly rest: RestLimits;
  readonly context?: QueryContext;
}

/**
 * The parameters of a files query: a query string (qs, as for content types) or a parameter object. A top-level
 * `start` / `limit` joins `pagination`, as Strapi's upload service reads them (`transformParamsToQuery`, the
 * Document Service's top-level parameters); a top-level `page` / `pageSize` stays a 400, as for content types.
 */
function filesParams(raw: string | Readonly<Record<string, unknown>>): Record<string, unknown> {
  const params = typeof raw === 'string' ? parseRawQuery(raw) : normalizeParams(raw);
  if (params.start === undefined && params.limit === undefined) return params;
  const { start, limit, pagination, ...rest } = params;
  const nested = pagination !== null && typeof pagination === 'object' && !Array.isArray(pagination) ? pagination : {};
  return { ...rest, pagination: { ...nested, ...(start === undefined ? {} : { start }), ...(limit === undefined ? {} : { limit }) } };
}

/**
 * A query on the media library, parsed by lib/query as the query of any content type: `plugin::upload.file` is a
 * type of the registry (lib/schema/system-attributes.ts), so its filters, sort, fields, populate and pagination
 * follow the same rules, operators and limits (`rest.maxLimit`, 20 text conditions, 8192 characters per operand).
 * Errors are the same 400s. `action: 'findOne'` checks the query of `GET /upload/files/:id` (Strapi validates it
 * there too, then reads the file whatever its filters, sort or fields).
 *
 * @example
 * filesQuery({ registry, rest: { defaultLimit: 25, maxLimit: 100 } }, 'filters[name][$contains]=tiny&sort=name', 'find');
 */
export function filesQuery(scope: FilesQueryScope, raw: string | Readonly<Record<string, unknown>>, action: 'find' | 'findOne'): Query {
  return parseQuery({
    registry: scope.registry,
    contentType: scope.registry.contentType(UPLOAD_FILE_UID),
    rawQuery: '',
    params: filesParams(raw),
    context: scope.context ?? ANYONE,
    rest: scope.rest,
    action,
  });
}

/**
 * Runs a files query as ONE aggregation compiled by lib/pipeline (compileFind, as every content type's list) and
 * answers the files of the page in Strapi's key order: every field, or `id`, `documentId` and the `fields` asked.
 * No total is counted: `GET /upload/files` answers a bare array, without `meta`.
 *
 * @example
 * const files = await findFiles(engine, registry, filesQuery({ registry, rest }, 'sort=name:desc', 'find'));
 */
export async function findFiles(engine: Engine, registry: Registry, query: Query): Promise<FileSelection[]> {
  const type = registry.contentType(UPLOAD_FILE_UID);
  const pipeline = compileFind(registry, type, { ...query, pagination: { ...query.pagination, withCount: false } });
  // A list read may sort past MongoDB's in-memory limit for a blocking stage (`allowDiskUse`, as content lists:
  // https://www.mongodb.com/docs/manual/reference/command/aggregate/).
  const docs = await engine.aggregate(type.collectionName, pipeline, { allowDiskUse: true });
  return readPage(docs, false).rows.map((row) => toFileSelection(row, query.fields));
}
