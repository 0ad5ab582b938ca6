import type { ScalarAttribute } from '../schema';
import { asList, isPlainObject } from './as-list';
import { castValue, parseBoolean } from './cast-value';
import { invalidValue, type ParseScope } from './parse-scope';
import type { FilterNode, FilterOperator } from './types';

/** Every operator a scalar attribute accepts, whitelisted (anything else starting with `$` is `Invalid key`). */
export const FILTER_OPERATORS: ReadonlySet<string> = new Set<FilterOperator>([
  '$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$contains', '$notContains',
  '$containsi', '$notContainsi', '$null', '$notNull', '$between', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi',
]);

/** Operators that compare text: the value stays a string whatever the attribute type. */
export const TEXT_OPERATORS: ReadonlySet<string> = new Set([
  '$eqi', '$nei', '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi',
]);

/**
 * The longest operand of a text operator, in characters. Text operators run as escaped regular expressions,
 * and V8 (about 64K characters) and MongoDB (32K bytes) refuse longer patterns, which made a long value a 500.
 */
export const MAX_TEXT_OPERAND = 8192;

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

type Fail = (reason: string) => never;

function castOne(attribute: ScalarAttribute, value: unknown, fail: Fail): unknown {
  const result = castValue(attribute, value);
  if (!result.ok) fail(result.reason);
  return result.ok ? result.value : undefined;
}

function castList(attribute: ScalarAttribute, value: unknown, fail: Fail): unknown[] {
  const list = asList(value) ?? (isScalar(value) ? [value] : undefined);
  if (!list || list.length === 0) fail('expected a value or an array of values');
  return (list ?? []).map((item) => castOne(attribute, item, fail));
}

/**
 * Builds the scalar condition `<field> <operator> <value>`, casting the value to the attribute's type.
 * `$eq`/`$ne` with an array become `$in`/`$notIn`; `$eq`/`$ne` with null become `$null`/`$notNull`;
 * `$in`/`$notIn` wrap a scalar; `$between` needs exactly two values. Objects are never accepted as values.
 */
export function parseFilterOperator(
  scope: ParseScope,
  attribute: ScalarAttribute,
  operator: FilterOperator,
  value: unknown,
  path: string,
): FilterNode {
  const fail: Fail = (reason) => {
    throw invalidValue(scope, operator, path, reason);
  };
  const node = (op: FilterOperator, v: unknown): FilterNode => ({ type: 'scalar', field: attribute.name, attribute, operator: op, value: v });
  if (operator === '$null' || operator === '$notNull') {
    const flag = parseBoolean(value);
    if (flag === undefined) fail('expected true or false');
    return node(operator, flag);
  }
  if (operator === '$in' || operator === '$notIn') return node(operator, castList(attribute, value, fail));
  if (operator === '$between') {
    const list = asList(value);
    if (!list || list.length !== 2) fail('expected an array of two values');
    return node(operator, castList(attribute, list, fail));
  }
  if ((operator === '$eq' || operator === '$ne') && (Array.isArray(value) || asList(value))) {
    return node(operator === '$eq' ? '$in' : '$notIn', castList(attribute, value, fail));
  }
  if ((operator === '$eq' || operator === '$ne') && value === null) return node(operator === '$eq' ? '$null' : '$notNull', true);
  if (!isScalar(value) || isPlainObject(value)) fail('expected a scalar value');
  if (TEXT_OPERATORS.has(operator)) {
    const text = String(value);
    if (text.length > MAX_TEXT_OPERAND) fail(`longer than ${MAX_TEXT_OPERAND} characters`);
    return node(operator, text);
  }
  return node(operator, castOne(attribute, value, fail));
}
