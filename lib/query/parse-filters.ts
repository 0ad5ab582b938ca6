import { ValidationError } from '../errors';
import type { Attribute, Attributes, ScalarAttribute } from '../schema';
import { asList, isPlainObject } from './as-list';
import { FILTER_OPERATORS, parseFilterOperator, TEXT_OPERATORS } from './parse-filter-operator';
import { invalidKey, invalidValue, joinPath, withDeferredPermissions, type ParseScope } from './parse-scope';
import { assertCanCross, nestedAttributes, resolveAttribute } from './resolve-attribute';
import type { FilterNode, FilterOperator } from './types';

const LOGICAL = new Set(['$and', '$or', '$not']);

function combine(type: 'and' | 'or', children: FilterNode[]): FilterNode {
  return children.length === 1 && type === 'and' ? children[0]! : { type, children };
}

/** `$and`/`$or`: an array (or an index-keyed object) of conditions, each parsed by `parseItem`. */
function parseLogical(
  scope: ParseScope,
  key: '$and' | '$or',
  value: unknown,
  path: string | null,
  parseItem: (item: unknown) => FilterNode,
): FilterNode {
  const list = asList(value);
  if (!list || list.length === 0) throw invalidValue(scope, key, path, 'expected a non-empty array of conditions');
  return { type: key === '$and' ? 'and' : 'or', children: list.map(parseItem) };
}

function expectObject(scope: ParseScope, key: string, value: unknown, path: string | null): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalidValue(scope, key, path, 'expected an object of conditions');
  return value;
}

/** Conditions on one scalar attribute: a value (implicit `$eq`, or `$in` for an array) or an object of operators. */
function parseScalarCondition(scope: ParseScope, attribute: ScalarAttribute, value: unknown, path: string): FilterNode {
  if (!isPlainObject(value) || asList(value)) return parseFilterOperator(scope, attribute, '$eq', value, path);
  const children: FilterNode[] = [];
  for (const [key, operand] of Object.entries(value)) {
    if (key === '$not') {
      children.push({ type: 'not', child: parseScalarCondition(scope, attribute, expectObject(scope, key, operand, path), path) });
    } else if (key === '$and' || key === '$or') {
      children.push(parseLogical(scope, key, operand, path, (item) => parseScalarCondition(scope, attribute, item, path)));
    } else if (FILTER_OPERATORS.has(key)) {
      children.push(parseFilterOperator(scope, attribute, key as FilterOperator, operand, path));
    } else {
      throw invalidKey(scope, key, path);
    }
  }
  if (children.length === 0) throw invalidValue(scope, attribute.name, path, 'expected an operator');
  return combine('and', children);
}

/**
 * Whether a relation's condition is on the target's `id` itself: a value, or operators only (`{ $null: true }`,
 * `{ $in: [...] }`), as Strapi's query engine reads a relation where clause (`filters[product][$null]=true`: no
 * related row; `[$notNull]=true`: some). `$and`/`$or`/`$not` there combine conditions on the target's
 * attributes instead, and operators mixed with attributes are refused by the where parser (Invalid key).
 */
function isIdCondition(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => FILTER_OPERATORS.has(key));
}

/** One attribute of a where object: scalar, relation/media (deep), or component (deep). */
function parseAttributeCondition(scope: ParseScope, attribute: Attribute, value: unknown, path: string): FilterNode {
  switch (attribute.kind) {
    case 'scalar':
      return parseScalarCondition(scope, attribute, value, path);
    case 'relation':
    case 'media': {
      assertCanCross(scope, attribute, path);
      const attrs = nestedAttributes(scope, attribute)!;
      const where = isPlainObject(value) && !asList(value) && !isIdCondition(value)
        ? parseWhere(scope, attrs, value, path)
        : parseScalarCondition(scope, attrs.id as ScalarAttribute, value, joinPath(path, 'id'));
      return { type: 'relation', field: attribute.name, attribute, target: attribute.target, where };
    }
    case 'component': {
      const where = parseWhere(scope, nestedAttributes(scope, attribute)!, expectObject(scope, attribute.name, value, path), path);
      return { type: 'component', field: attribute.name, attribute, where };
    }
    default:
      throw invalidKey(scope, attribute.name, path);
  }
}

/** A where object over `attributes`: keys are attributes or `$and`/`$or`/`$not`; conditions are and-ed. */
function parseWhere(scope: ParseScope, attributes: Attributes, where: Record<string, unknown>, path: string | null): FilterNode {
  const children: FilterNode[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (key === '$and' || key === '$or') {
      children.push(parseLogical(scope, key, value, path, (item) => parseWhere(scope, attributes, expectObject(scope, key, item, path), path)));
    } else if (key === '$not') {
      children.push({ type: 'not', child: parseWhere(scope, attributes, expectObject(scope, key, value, path), path) });
    } else if (key.startsWith('$') && !LOGICAL.has(key)) {
      throw invalidKey(scope, key, path);
    } else {
      const attribute = resolveAttribute(scope, attributes, key, path);
      children.push(parseAttributeCondition(scope, attribute, value, joinPath(path, key)));
    }
  }
  return children.length === 0 ? { type: 'and', children: [] } : combine('and', children);
}

/**
 * Validates the `filters` parameter against `attributes` into a FilterNode tree (undefined when empty).
 * Throws `Invalid key` for unknown, private or forbidden keys and unknown operators, and a ValidationError
 * naming the key for values that cannot be cast.
 *
 * @example
 * parseFilters(scope, article.attributes, { title: { $containsi: 'strapi' } });
 * // { type: 'scalar', field: 'title', operator: '$containsi', value: 'strapi', attribute }
 */
export function parseFilters(scope: ParseScope, attributes: Attributes, raw: unknown): FilterNode | undefined {
  const node = withDeferredPermissions(scope, (s) => parseRoot(s, attributes, raw));
  if (node && textConditions(node) > MAX_TEXT_CONDITIONS) {
    throw new ValidationError(`Invalid ${scope.param} parameter: more than ${MAX_TEXT_CONDITIONS} text conditions`, { key: scope.param, path: null, source: 'query', param: scope.param });
  }
  return node;
}

/**
 * The most text conditions (`$contains`, `$startsWith`, `$eqi`... and their negations and case-insensitive forms)
 * one `filters` parameter may hold. They are regular expressions that no index answers: each one is tested on
 * every candidate row (on the embedded engine about 11 ms per condition over 100,000 articles, in the app's own
 * process; 300 of them `$or`ed took 3.4 s). 20 is a search of 5 words over 4 fields.
 */
export const MAX_TEXT_CONDITIONS = 20;

function textConditions(node: FilterNode): number {
  switch (node.type) {
    case 'and':
    case 'or':
      return node.children.reduce((n, c) => n + textConditions(c), 0);
    case 'not':
      return textConditions(node.child);
    case 'relation':
    case 'component':
      return textConditions(node.where);
    default:
      return TEXT_OPERATORS.has(node.operator) ? 1 : 0;
  }
}

function parseRoot(scope: ParseScope, attributes: Attributes, raw: unknown): FilterNode | undefined {
  const list = asList(raw);
  if (!list && !isPlainObject(raw)) throw new ValidationError('The filters parameter must be an object or an array');
  const items = list ?? [raw];
  const children = items.map((item) => {
    if (!isPlainObject(item)) throw new ValidationError('The filters parameter must be an object or an array');
    return parseWhere(scope, attributes, item, null);
  });
  const nonEmpty = children.filter((c) => !(c.type === 'and' && c.children.length === 0));
  return nonEmpty.length === 0 ? undefined : combine('and', nonEmpty);
}

/** true when `node` has a condition on the type's own `field` (not through a relation or component). */
export function filtersReference(node: FilterNode | undefined, field: string): boolean {
  if (!node) return false;
  switch (node.type) {
    case 'and':
    case 'or':
      return node.children.some((c) => filtersReference(c, field));
    case 'not':
      return filtersReference(node.child, field);
    case 'scalar':
      return node.field === field;
    default:
      return false;
  }
}
