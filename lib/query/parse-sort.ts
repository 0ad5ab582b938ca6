import { ValidationError } from '../errors';
import type { Attributes } from '../schema';
import { asList, isPlainObject } from './as-list';
import { assertDepth, MAX_SORT_KEYS } from './depth-limit';
import { invalidKey, joinPath, withDeferredPermissions, type ParseScope } from './parse-scope';
import { assertCanCross, nestedAttributes, resolveAttribute } from './resolve-attribute';
import type { SortItem } from './types';

interface RawSortItem {
  readonly path: readonly string[];
  readonly order: unknown;
}

const ORDER_MESSAGE = 'Invalid order. order can only be one of asc|desc|ASC|DESC';
const INVALID_SORT = 'Invalid sort parameter. Expected a string, an array of strings, an object or an array of objects';

/** `title`, `title:desc`, `author.name:asc`, `a:desc,b` */
function fromString(text: string): RawSortItem[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const colon = part.indexOf(':');
      const field = colon === -1 ? part : part.slice(0, colon).trim();
      const order = colon === -1 ? 'asc' : part.slice(colon + 1).trim();
      return { path: field.split('.').map((s) => s.trim()), order };
    });
}

/** `{ views: 'desc' }`, `{ author: { name: 'desc' } }` */
function fromObject(object: Record<string, unknown>, prefix: readonly string[]): RawSortItem[] {
  return Object.entries(object).flatMap(([key, value]) =>
    isPlainObject(value) ? fromObject(value, [...prefix, key]) : [{ path: [...prefix, key], order: value }],
  );
}

function collect(raw: unknown): RawSortItem[] {
  if (typeof raw === 'string') return fromString(raw);
  const list = asList(raw);
  if (list) {
    return list.flatMap((item) => {
      if (typeof item === 'string') return fromString(item);
      if (isPlainObject(item)) return fromObject(item, []);
      throw new ValidationError(INVALID_SORT);
    });
  }
  if (isPlainObject(raw)) return fromObject(raw, []);
  throw new ValidationError(INVALID_SORT);
}

/** Walks `path` down relations, media and components to a scalar attribute the caller may sort on. */
function checkPath(scope: ParseScope, attributes: Attributes, path: readonly string[]): void {
  let attrs: Attributes = attributes;
  let parent: string | null = null;
  path.forEach((segment, index) => {
    const attribute = resolveAttribute(scope, attrs, segment, parent);
    const here = joinPath(parent, segment);
    const last = index === path.length - 1;
    if (attribute.kind === 'scalar') {
      if (!last) throw invalidKey(scope, path[index + 1]!, here);
      return;
    }
    if (last || attribute.kind === 'dynamiczone') throw invalidKey(scope, segment, here);
    assertCanCross(scope, attribute, here);
    attrs = nestedAttributes(scope, attribute)!;
    parent = here;
  });
}

/** Drops the repeats of a path: the first occurrence decides, a later one cannot change the order. */
function distinct(items: RawSortItem[]): RawSortItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.path.join('.');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function toOrder(order: unknown): 'asc' | 'desc' | undefined {
  if (typeof order !== 'string') return undefined;
  const lower = order.toLowerCase();
  return lower === 'asc' || lower === 'desc' ? lower : undefined;
}

/**
 * Validates the `sort` parameter in all of Strapi's forms (string, comma list, array, object, nested object,
 * dotted relation/component paths). Keys are checked before directions, as Strapi does. A repeated key is
 * kept once (its first direction); more than MAX_SORT_KEYS distinct keys, or a path deeper than `rest.maxDepth`,
 * is a 400.
 *
 * @example
 * parseSort(scope, article.attributes, 'author.name:desc,title'); // [{ path: ['author','name'], order: 'desc' }, ...]
 */
export function parseSort(scope: ParseScope, attributes: Attributes, raw: unknown): SortItem[] {
  const all = collect(raw);
  const items = distinct(all);
  if (items.length > MAX_SORT_KEYS) throw new ValidationError(`Invalid sort parameter: more than ${MAX_SORT_KEYS} sort keys`);
  for (const item of items) assertDepth(scope, 'sort', item.path.length - 1);
  withDeferredPermissions(scope, (s) => items.forEach((item) => checkPath(s, attributes, item.path)));
  for (const item of all) if (!toOrder(item.order)) throw new ValidationError(ORDER_MESSAGE);
  return items.map((item) => ({ path: item.path, order: toOrder(item.order)! }));
}
