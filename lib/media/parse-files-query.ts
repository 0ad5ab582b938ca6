import qs from 'qs';
import { PaginationError, ValidationError, invalidKeyError } from '../errors';
import type { Filter, FindOptions } from '../engine';
import { MAX_TEXT_OPERAND } from '../query/parse-filter-operator';

/** Scalar fields of `plugin::upload.file` a query may filter and sort on, with how values are cast. */
const FIELDS: Readonly<Record<string, 'integer' | 'number' | 'string'>> = {
  id: 'integer', documentId: 'string', name: 'string', alternativeText: 'string', caption: 'string',
  width: 'integer', height: 'integer', hash: 'string', ext: 'string', mime: 'string', size: 'number',
  url: 'string', previewUrl: 'string', provider: 'string', createdAt: 'string', updatedAt: 'string', publishedAt: 'string',
};

const COMPARE: Readonly<Record<string, string>> = { $eq: '$eq', $ne: '$ne', $lt: '$lt', $lte: '$lte', $gt: '$gt', $gte: '$gte' };

/** A files query ready for `engine.find`. */
export interface FilesQuery {
  filter: Filter;
  options: FindOptions;
}

/**
 * The query of `GET /upload/files` (filters on the file's scalar fields, sort, page/pageSize or start/limit)
 * as an engine filter. The default order is by `id` (upload order) and, as in Strapi's upload plugin, there
 * is no default page size. Operators are whitelisted; text matching uses escaped, anchored regular expressions.
 *
 * @example parseFilesQuery('filters[mime][$startsWith]=image/&sort=name:desc&pagination[pageSize]=10')
 */
export function parseFilesQuery(raw: string | Record<string, unknown>): FilesQuery {
  const q = typeof raw === 'string' ? (qs.parse(raw, { depth: 20, arrayLimit: 100 }) as Record<string, unknown>) : raw;
  const filter = q.filters === undefined ? {} : compileWhere(q.filters, 'filters');
  const sort = parseSort(q.sort);
  const options: FindOptions = { sort, ...parsePagination(q.pagination) };
  return { filter, options };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function compileWhere(node: unknown, path: string): Filter {
  if (!isObject(node)) throw new ValidationError(`Invalid filters parameter at ${path}`, { key: 'filters', path, source: 'query', param: 'filters' });
  const clauses: Filter[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === '$and' || key === '$or') {
      const items = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : null;
      if (!items) throw new ValidationError(`Invalid ${key} value at ${path}`, { key, path, source: 'query', param: 'filters' });
      clauses.push({ [key]: items.map((item, i) => compileWhere(item, `${path}.${key}.${i}`)) });
    } else if (key === '$not') {
      clauses.push({ $nor: [compileWhere(value, `${path}.$not`)] });
    } else if (Object.hasOwn(FIELDS, key)) {
      clauses.push(compileField(key, value));
    } else {
      throw invalidKeyError(key, key, 'query', 'filters');
    }
  }
  if (clauses.length === 0) return {};
  return clauses.length === 1 ? clauses[0]! : { $and: clauses };
}

function compileField(field: string, value: unknown): Filter {
  if (!isObject(value)) return { [field]: cast(field, value) };
  const parts: Filter[] = [];
  for (const [op, operand] of Object.entries(value)) parts.push(compileOperator(field, op, operand));
  return parts.length === 1 ? parts[0]! : { $and: parts };
}

function compileOperator(field: string, op: string, operand: unknown): Filter {
  const cmp = COMPARE[op];
  if (cmp) return Array.isArray(operand) && op === '$eq' ? { [field]: { $in: operand.map((v) => cast(field, v)) } } : { [field]: { [cmp]: cast(field, operand) } };
  const list = () => (Array.isArray(operand) ? operand : [operand]).map((v) => cast(field, v));
  switch (op) {
    case '$in': return { [field]: { $in: list() } };
    case '$notIn': return { [field]: { $nin: list() } };
    case '$null': return truthy(operand) ? { [field]: null } : { [field]: { $ne: null } };
    case '$notNull': return truthy(operand) ? { [field]: { $ne: null } } : { [field]: null };
    case '$between': {
      const [lo, hi] = list();
      if (lo === undefined || hi === undefined) throw badValue(field, op);
      return { [field]: { $gte: lo, $lte: hi } };
    }
    case '$eqi': return { [field]: text(operand, field, op, '^', '$', 'i') };
    case '$nei': return { [field]: { $not: text(operand, field, op, '^', '$', 'i') } };
    case '$contains': return { [field]: text(operand, field, op, '', '', '') };
    case '$containsi': return { [field]: text(operand, field, op, '', '', 'i') };
    case '$notContains': return { [field]: { $not: text(operand, field, op, '', '', '') } };
    case '$notContainsi': return { [field]: { $not: text(operand, field, op, '', '', 'i') } };
    case '$startsWith': return { [field]: text(operand, field, op, '^', '', '') };
    case '$startsWithi': return { [field]: text(operand, field, op, '^', '', 'i') };
    case '$endsWith': return { [field]: text(operand, field, op, '', '$', '') };
    case '$endsWithi': return { [field]: text(operand, field, op, '', '$', 'i') };
    default: throw invalidKeyError(op, `${field}.${op}`, 'query', 'filters');
  }
}

function truthy(v: unknown): boolean {
  return v === true || v === 'true' || v === '1' || v === 1;
}

function badValue(field: string, op: string): ValidationError {
  return new ValidationError(`Invalid value for ${op} at ${field}`, { key: op, path: `${field}.${op}`, source: 'query', param: 'filters' });
}

function text(operand: unknown, field: string, op: string, start: string, end: string, flags: string): RegExp {
  if (typeof operand !== 'string' && typeof operand !== 'number') throw badValue(field, op);
  if (String(operand).length > MAX_TEXT_OPERAND) throw badValue(field, op);
  const escaped = String(operand).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`${start}${escaped}${end}`, flags);
}

function cast(field: string, value: unknown): unknown {
  if (value === null || value === 'null') return null;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw badValue(field, '$eq');
  const kind = FIELDS[field];
  if (kind === 'string') return String(value);
  const n = Number(value);
  if (value === '' || !Number.isFinite(n) || (kind === 'integer' && !Number.isInteger(n))) throw badValue(field, '$eq');
  return n;
}

function parseSort(raw: unknown): Record<string, 1 | -1> {
  const items = raw === undefined ? [] : Array.isArray(raw) ? raw : isObject(raw) ? Object.values(raw) : String(raw).split(',');
  const sort: Record<string, 1 | -1> = {};
  for (const item of items) {
    if (typeof item !== 'string') throw new ValidationError('Invalid sort parameter', { key: 'sort', path: 'sort', source: 'query', param: 'sort' });
    const [field = '', dir = 'asc'] = item.trim().split(':');
    if (!Object.hasOwn(FIELDS, field)) throw invalidKeyError(field, field, 'query', 'sort');
    if (!/^(asc|desc)$/i.test(dir)) throw new ValidationError(`Invalid order. order can only be one of asc|desc|ASC|DESC`);
    sort[field] = dir.toLowerCase() === 'desc' ? -1 : 1;
  }
  if (!('id' in sort)) sort.id = 1;
  return sort;
}

function parsePagination(raw: unknown): Pick<FindOptions, 'skip' | 'limit'> {
  if (raw === undefined) return {};
  if (!isObject(raw)) throw new PaginationError('Invalid pagination parameters');
  const num = (v: unknown, name: string, min: number): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (typeof v === 'object' || v === '' || !Number.isInteger(n) || n < min) throw new PaginationError(`Invalid '${name}' parameter. Expected an integer >= ${min}`);
    // MongoDB takes a 64-bit integer skip / limit, and a JavaScript number is exact up to MAX_SAFE_INTEGER.
    if (n > Number.MAX_SAFE_INTEGER) throw new PaginationError(`Invalid '${name}' parameter. Expected an integer <= ${Number.MAX_SAFE_INTEGER}`);
    return n;
  };
  const page = num(raw.page, 'page', 1);
  const pageSize = num(raw.pageSize, 'pageSize', 1);
  const start = num(raw.start, 'start', 0);
  const limit = num(raw.limit, 'limit', -1);
  if ((page !== undefined || pageSize !== undefined) && (start !== undefined || limit !== undefined)) {
    throw new PaginationError('Cannot use both page & offset pagination in the same query');
  }
  if (page !== undefined || pageSize !== undefined) {
    const size = pageSize ?? 25;
    const skip = ((page ?? 1) - 1) * size;
    if (skip > Number.MAX_SAFE_INTEGER) throw new PaginationError(`Invalid pagination parameters. (page - 1) * pageSize must be <= ${Number.MAX_SAFE_INTEGER}`);
    return { skip, limit: size };
  }
  const out: Pick<FindOptions, 'skip' | 'limit'> = {};
  if (start !== undefined && start > 0) out.skip = start;
  if (limit !== undefined && limit >= 0) out.limit = limit;
  return out;
}
