import { compareBson } from './bson-compare';

/** mingo's signature of an expression operator: (document, operand, options) -> value. */
type ExpressionOperator = (obj: Record<string, unknown>, expr: unknown, options: never) => unknown;
/** mingo's `evalExpr`, passed in so that this file stays free of mingo's module layout. */
type Evaluate = (obj: Record<string, unknown>, expr: unknown, options: never) => unknown;

/**
 * The aggregation comparison operators as the MongoDB manual defines them, to replace mingo's, which reuse the
 * query semantics (an array field "equals" a scalar it contains; `$lt` only between values of one type):
 * - `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$cmp` compare "both value and type, using the specified BSON
 *   comparison order for values of different types"
 *   (https://www.mongodb.com/docs/manual/reference/operator/aggregation/eq/, .../aggregation/lt/,
 *   .../aggregation/cmp/; the order: https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/);
 * - `$in` is true when an element of the array equals the value in that sense, and an error when the second
 *   operand is not an array (https://www.mongodb.com/docs/manual/reference/operator/aggregation/in/);
 * - `$min` / `$max` (the relation sort keys of pipeline/compile-sort) give the smallest / largest value in that
 *   order, nulls and missing values ignored (null when none is left); one operand that is an array is traversed,
 *   arrays in a list of operands are values (https://www.mongodb.com/docs/manual/reference/operator/aggregation/min/,
 *   .../aggregation/max/). mingo orders arrays among them otherwise: `$min` of `[['b', 'a'], ['a', 'z']]` is
 *   `['a', 'z']` in MongoDB (arrays compare element by element), `['b', 'a']` in mingo.
 *
 * @example
 * Context.init({ expression: { ...mingoExpressionOperators, ...comparisonOperators(evalExpr) } })
 */
export function comparisonOperators(evaluate: Evaluate): Record<string, ExpressionOperator> {
  const binary = (name: string, test: (c: -1 | 0 | 1) => boolean | number): ExpressionOperator => (obj, expr, options) => {
    if (!Array.isArray(expr) || expr.length !== 2) throw new Error(`Expression ${name} takes exactly 2 arguments.`);
    const [a, b] = evaluate(obj, expr, options) as [unknown, unknown];
    return test(compareBson(a, b));
  };
  return {
    $eq: binary('$eq', (c) => c === 0),
    $ne: binary('$ne', (c) => c !== 0),
    $gt: binary('$gt', (c) => c > 0),
    $gte: binary('$gte', (c) => c >= 0),
    $lt: binary('$lt', (c) => c < 0),
    $lte: binary('$lte', (c) => c <= 0),
    $cmp: binary('$cmp', (c) => c),
    $min: extreme(evaluate, -1),
    $max: extreme(evaluate, 1),
    $in: (obj, expr, options) => {
      if (!Array.isArray(expr) || expr.length !== 2) throw new Error('Expression $in takes exactly 2 arguments.');
      const [value, list] = evaluate(obj, expr, options) as [unknown, unknown];
      if (!Array.isArray(list)) throw new Error(`$in requires an array as a second argument, found: ${list === undefined ? 'missing' : typeof list}`);
      return list.some((element) => compareBson(element, value) === 0);
    },
  };
}

/** `$min` (`sign` -1) or `$max` (1) in BSON order. */
function extreme(evaluate: Evaluate, sign: -1 | 1): ExpressionOperator {
  return (obj, expr, options) => {
    const operands = Array.isArray(expr) ? expr : [expr];
    const evaluated = evaluate(obj, operands, options) as unknown[];
    const values = operands.length === 1 && Array.isArray(evaluated[0]) ? (evaluated[0] as unknown[]) : evaluated;
    let best: unknown = null;
    for (const value of values) {
      if (value !== null && value !== undefined && (best === null || compareBson(value, best) === sign)) best = value;
    }
    return best;
  };
}
