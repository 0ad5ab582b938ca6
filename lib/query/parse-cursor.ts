import { createHash } from 'node:crypto';
import { ValidationError } from '../errors';
import type { ComponentAttribute, ContentType, Registry, ScalarAttribute } from '../schema';
import { cursorKey, MAX_CURSOR_LENGTH, openCursor, sealCursor } from './cursor-token';
import type { CursorPagination, FilterNode, SortItem, Status } from './types';

/** One key of a keyset: a scalar reached through zero or more single (non-repeatable) components. */
interface CursorKey {
  readonly path: readonly string[];
  readonly order: 'asc' | 'desc';
  readonly attribute: ScalarAttribute;
  readonly components: readonly ComponentAttribute[];
}

/** What parseCursor needs: the query's rows (type, sort, filters, locale, status) and the raw cursor. */
export interface CursorInput {
  readonly registry: Registry;
  readonly contentType: ContentType;
  readonly sort: readonly SortItem[];
  readonly filters: FilterNode | undefined;
  readonly locale: string | undefined;
  readonly status: Status;
  /** `pagination[cursor]`: '' for the first page. */
  readonly cursor: string;
  readonly limit: number;
  readonly withCount: boolean;
  /** `rest.cursorSecret`: the HMAC key (this process's random key when undefined). */
  readonly secret: string | Uint8Array | undefined;
}

const UNORDERED = new Set(['json', 'blocks', 'password']);

function cursorError(reason: string): ValidationError {
  return new ValidationError(`Invalid pagination[cursor]: ${reason}`, { key: 'cursor', path: 'pagination.cursor', source: 'query', param: 'pagination' });
}

/**
 * The keys a cursor walks by: each sort item, then `id` (the tie-breaker, as compileSort appends it). Only scalar
 * fields, on the type or through single components, have one value per row that a range filter can compare; a
 * relation path (`author.name`, a join's `$min`/`$max`), a repeatable component (an array) or a json/blocks field
 * is a 400 naming the key.
 */
function cursorKeys(registry: Registry, ct: ContentType, sort: readonly SortItem[]): CursorKey[] {
  const keys = sort.map((item) => resolveKey(registry, ct, item));
  return keys.some((k) => k.path.length === 1 && k.path[0] === 'id') ? keys : [...keys, { path: ['id'], order: 'asc', attribute: ct.attributes.id as ScalarAttribute, components: [] }];
}

function resolveKey(registry: Registry, ct: ContentType, item: SortItem): CursorKey {
  const dotted = item.path.join('.');
  const refuse = (why: string): ValidationError =>
    new ValidationError(`Cannot paginate by cursor on sort ${dotted}: ${why}`, { key: item.path[0] ?? '', path: dotted, source: 'query', param: 'sort' });
  let attrs = ct.attributes;
  const components: ComponentAttribute[] = [];
  for (const [i, name] of item.path.entries()) {
    const attribute = attrs[name];
    const last = i === item.path.length - 1;
    if (attribute?.kind === 'scalar' && last) {
      if (UNORDERED.has(attribute.type)) throw refuse(`a ${attribute.type} field has no order a cursor can keep`);
      return { path: item.path, order: item.order, attribute, components };
    }
    if (attribute?.kind === 'component' && !last && !attribute.repeatable) {
      components.push(attribute);
      attrs = registry.component(attribute.component).attributes;
      continue;
    }
    if (attribute?.kind === 'component') throw refuse('a repeatable component holds a list of values per entry');
    throw refuse('a cursor can only follow fields of the entries and of their single components, not relations (use offset pagination)');
  }
  throw refuse('not a field');
}

/** What a cursor is bound to: the rows and order of the query (type, sort keys, filters, locale, status). */
function queryShape(input: CursorInput, keys: readonly CursorKey[]): string {
  const filters = JSON.stringify(input.filters ?? null, (k, v: unknown) => (k === 'attribute' ? undefined : v));
  const sort = keys.map((k) => `${k.path.join('.')}:${k.order}`);
  const shape = JSON.stringify([input.contentType.uid, sort, filters, input.locale ?? null, input.status]);
  return createHash('sha256').update(shape).digest('base64url');
}

/** A decoded value of `key`, as it is stored (storage-model: numbers, booleans, strings for text, dates and bigintegers). */
function checkValue(key: CursorKey, value: unknown): boolean {
  const type = key.attribute.type;
  if (value === null) return !(key.path.length === 1 && key.path[0] === 'id');
  if (type === 'integer') return Number.isSafeInteger(value);
  if (type === 'float' || type === 'decimal') return typeof value === 'number' && Number.isFinite(value);
  if (type === 'boolean') return typeof value === 'boolean';
  if (type === 'biginteger') return typeof value === 'string' && /^-?\d{1,40}$/.test(value);
  return typeof value === 'string';
}

function scalar(key: CursorKey, operator: '$eq' | '$gt' | '$lt' | '$null' | '$notNull', value: unknown): FilterNode {
  const field = key.path[key.path.length - 1]!;
  let node: FilterNode = { type: 'scalar', field, attribute: key.attribute, operator, value };
  for (let i = key.components.length - 1; i >= 0; i--) node = { type: 'component', field: key.path[i]!, attribute: key.components[i]!, where: node };
  return node;
}

/** The rows equal to `value` on `key` (null: null or missing, which sort together). */
function equal(key: CursorKey, value: unknown): FilterNode {
  return value === null ? scalar(key, '$null', true) : scalar(key, '$eq', value);
}

/**
 * The rows that sort after `value` on `key` alone, or undefined when none can. MongoDB sorts null and missing
 * values first ascending, last descending, below every other type, and a missing field compares as null
 * (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/, "Non-existent Fields"); `$gt`/`$lt`
 * only match values of the operand's type ("Type Bracketing", same page), so null needs its own branch.
 */
function after(key: CursorKey, value: unknown): FilterNode | undefined {
  if (key.order === 'asc') return value === null ? scalar(key, '$notNull', true) : scalar(key, '$gt', value);
  return value === null ? undefined : { type: 'or', children: [scalar(key, '$lt', value), scalar(key, '$null', true)] };
}

/**
 * The keyset range filter: the rows after the position `values` in the order of `keys`,
 * `$or: [{ a: { $gt: va } }, { a: va, b: { $gt: vb } }, ..., { a: va, ..., id: { $gt: vid } }]`. Every row
 * differs from every other on `id`, so it is strictly after, and the walk neither skips nor repeats a row that
 * stays in place.
 */
function keysetFilter(keys: readonly CursorKey[], values: readonly unknown[]): FilterNode {
  const branches: FilterNode[] = [];
  keys.forEach((key, i) => {
    const next = after(key, values[i]);
    if (!next) return;
    const prefix = keys.slice(0, i).map((k, j) => equal(k, values[j]));
    branches.push(prefix.length === 0 ? next : { type: 'and', children: [...prefix, next] });
  });
  return { type: 'or', children: branches };
}

/**
 * `pagination[cursor]` -> the query's CursorPagination: the keys, the range filter after the cursor's position
 * (none for `''`, the first page) and the sealer of the next cursor. A cursor that is too long, malformed, forged,
 * altered, or made for another query (other type, sort, filters, locale or status) is a 400 ValidationError; its
 * values are checked against the keys' stored types and only ever used as values of the range filter.
 *
 * @example
 * parseCursor({ registry, contentType: article, sort: [{ path: ['title'], order: 'asc' }], filters: undefined,
 *   locale: 'en', status: 'published', cursor: '', limit: 10, withCount: false, secret: undefined });
 * // { kind: 'cursor', limit: 10, withCount: false, keys: ['title', 'id'], next: [Function] }
 */
export function parseCursor(input: CursorInput): CursorPagination {
  const keys = cursorKeys(input.registry, input.contentType, input.sort);
  const shape = queryShape(input, keys);
  const key = cursorKey(input.secret);
  const next = (values: readonly unknown[]): string => {
    const cursor = sealCursor(key, shape, values.map((v) => (v instanceof Date ? v.toISOString() : (v ?? null))));
    if (cursor.length > MAX_CURSOR_LENGTH) throw new ValidationError(`Cannot paginate by cursor: the sort keys of this page's last entry make a cursor longer than ${MAX_CURSOR_LENGTH} characters; sort by shorter fields`);
    return cursor;
  };
  const base = { kind: 'cursor' as const, limit: input.limit, withCount: input.withCount, keys: keys.map((k) => k.path.join('.')), next };
  if (input.cursor === '') return base;
  const opened = openCursor(key, shape, input.cursor);
  if (!opened.ok) throw cursorError(opened.reason);
  if (opened.values.length !== keys.length || !keys.every((k, i) => checkValue(k, opened.values[i]))) throw cursorError('not a cursor of this query');
  return { ...base, after: keysetFilter(keys, opened.values) };
}
