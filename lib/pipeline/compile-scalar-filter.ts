import type { Filter } from '../engine/types';
import type { FilterOperator } from '../query/types';
import type { ScalarAttribute } from '../schema/types';
import { bigIntegerRange } from './big-integer-order';
import { textPattern, type TextAnchor } from './text-pattern';

type Condition = Record<string, unknown>;

/** Text operators: anchor, case-insensitive?, negated?. SQLite's LIKE ignores ASCII case, so do all but `$eq`. */
const TEXT: Partial<Record<FilterOperator, readonly [TextAnchor, boolean]>> = {
  $eqi: ['equals', false],
  $nei: ['equals', true],
  $contains: ['contains', false],
  $containsi: ['contains', false],
  $notContains: ['contains', true],
  $notContainsi: ['contains', true],
  $startsWith: ['startsWith', false],
  $startsWithi: ['startsWith', false],
  $endsWith: ['endsWith', false],
  $endsWithi: ['endsWith', false],
};

/** Paths where the text of a `blocks` value lives (nested `children` of the Strapi blocks format). */
const BLOCKS_TEXT_PATHS = ['', '.children.text', '.children.children.text', '.children.children.children.text', '.children.url'];

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** The condition on one field for a non-text operator. Values always sit under an operator, never as a query. */
function valueCondition(operator: FilterOperator, value: unknown): Condition {
  switch (operator) {
    case '$eq': return Array.isArray(value) ? { $in: value } : { $eq: value };
    case '$ne': return Array.isArray(value) ? { $nin: value } : { $ne: value };
    case '$lt': return { $lt: value };
    case '$lte': return { $lte: value };
    case '$gt': return { $gt: value };
    case '$gte': return { $gte: value };
    case '$in': return { $in: asArray(value) };
    case '$notIn': return { $nin: asArray(value), $ne: null };
    case '$null': return value === false ? { $ne: null } : { $eq: null };
    case '$notNull': return value === false ? { $eq: null } : { $ne: null };
    case '$between': {
      const [low, high] = asArray(value);
      return { $gte: low, $lte: high };
    }
    default: return { $eq: value };
  }
}

/** Range operators on a biginteger (canonical decimal strings): numeric order, not string order. */
function bigIntegerFilter(path: string, operator: FilterOperator, value: unknown): Filter | null {
  if (operator === '$lt' || operator === '$lte' || operator === '$gt' || operator === '$gte') {
    return typeof value === 'string' ? bigIntegerRange(path, operator, value) : null;
  }
  if (operator !== '$between') return null;
  const [low, high] = asArray(value);
  if (typeof low !== 'string' || typeof high !== 'string') return null;
  return { $and: [bigIntegerRange(path, '$gte', low), bigIntegerRange(path, '$lte', high)] };
}

/**
 * Compiles one scalar filter (`filters[title][$containsi]=x`) on the field at `path` (dotted inside components).
 * Text operators become escaped, anchored, case-insensitive `$regex`es; `$eq` stays case-sensitive; `$ne`/`$nei`
 * keep rows whose value is null, `$notContains`/`$notIn` do not (SQL semantics). json/blocks values are matched
 * on their text leaves. Ranges on a biginteger compare numerically (big-integer-order).
 *
 * @example
 * compileScalarFilter('title', titleAttr, '$startsWith', 'Art') // { title: { $regex: '^Art', $options: 'i' } }
 */
export function compileScalarFilter(path: string, attribute: ScalarAttribute, operator: FilterOperator, value: unknown): Filter {
  if (attribute.type === 'biginteger') {
    const range = bigIntegerFilter(path, operator, value);
    if (range) return range;
  }
  const text = TEXT[operator];
  if (!text || (typeof value !== 'string' && typeof value !== 'number')) {
    const plain = operator === '$eqi' ? '$eq' : operator === '$nei' ? '$ne' : operator;
    return { [path]: valueCondition(plain, value) };
  }
  const [anchor, negated] = text;
  const pattern = textPattern(value, anchor, true);
  if (attribute.type === 'json' || attribute.type === 'blocks') {
    const paths = (attribute.type === 'blocks' ? BLOCKS_TEXT_PATHS : ['']).map((suffix) => ({ [`${path}${suffix}`]: pattern }));
    const any = paths.length === 1 ? paths[0]! : { $or: paths };
    if (!negated) return any;
    // As for strings: `$nei` keeps null values, the other negated operators drop them (SQL `NOT LIKE` on NULL).
    return operator === '$nei' ? { $nor: [any] } : { $nor: [any], [path]: { $ne: null } };
  }
  if (!negated) return { [path]: pattern };
  return operator === '$nei' ? { [path]: { $not: pattern } } : { [path]: { $not: pattern, $ne: null } };
}
