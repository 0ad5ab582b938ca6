import { compareBson } from './bson-compare';

/** mingo's signature of an expression operator: (document, operand, options) -> value. */
type ExpressionOperator = (obj: Record<string, unknown>, expr: unknown, options: never) => unknown;
/** mingo's signature of an accumulator: (a group's documents, operand, options) -> value. */
type AccumulatorOperator = (docs: readonly unknown[], expr: unknown, options: never) => unknown;
/** mingo's `evalExpr`, passed in so that this file stays free of mingo's module layout. */
type Evaluate = (obj: Record<string, unknown>, expr: unknown, options: never) => unknown;
/** mingo's `$push` accumulator: the operand's value for each document of a group (missing as null), passed in too. */
type Collect = (docs: readonly unknown[], expr: unknown, options: never) => unknown[];

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
 *   `['a', 'z']` in MongoDB (arrays compare element by element), `['b', 'a']` in mingo. In an accumulator's
 *   place (a `$group` or `$bucket` field) they are the accumulators of {@link extremeAccumulators}.
 *
 * @example
 * Context.init({ expression: { ...mingoExpressionOperators, ...comparisonOperators(evalExpr, $push) } })
 */
export function comparisonOperators(evaluate: Evaluate, collect: Collect): Record<string, ExpressionOperator> {
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
    $min: extreme(evaluate, collect, -1),
    $max: extreme(evaluate, collect, 1),
    $in: (obj, expr, options) => {
      if (!Array.isArray(expr) || expr.length !== 2) throw new Error('Expression $in takes exactly 2 arguments.');
      const [value, list] = evaluate(obj, expr, options) as [unknown, unknown];
      if (!Array.isArray(list)) throw new Error(`$in requires an array as a second argument, found: ${list === undefined ? 'missing' : typeof list}`);
      return list.some((element) => compareBson(element, value) === 0);
    },
  };
}

/**
 * The accumulators `$min` and `$max` in BSON order ($group, $bucket, $setWindowFields): the smallest / largest
 * value of the operand over the group's documents, nulls and missing values ignored (null when none is left), an
 * array one value compared as a whole ("In the $group stage, if the expression resolves to an array, $max does
 * not traverse the array and compares the array as a whole":
 * https://www.mongodb.com/docs/manual/reference/operator/aggregation/max/, .../aggregation/min/). An array operand
 * (`{ $max: ['$a', '$b'] }`) is refused as mongod refuses it ("The $max accumulator is a unary operator"). mingo's
 * accumulators sort with its own order (arrays among them otherwise).
 *
 * @example
 * Context.init({ accumulator: { ...mingoAccumulators, ...extremeAccumulators($push) } })
 */
export function extremeAccumulators(collect: Collect): Record<string, AccumulatorOperator> {
  return { $min: accumulateExtreme(collect, '$min'), $max: accumulateExtreme(collect, '$max') };
}

function accumulateExtreme(collect: Collect, name: '$min' | '$max'): AccumulatorOperator {
  return (docs, expr, options) => {
    if (Array.isArray(expr)) throw new Error(`The ${name} accumulator is a unary operator`);
    return extremeOf(collect(docs, expr, options), name === '$min' ? -1 : 1);
  };
}

/** The smallest (`sign` -1) or largest (1) value in BSON order, nulls and missing values ignored; null when none. */
function extremeOf(values: readonly unknown[], sign: -1 | 1): unknown {
  let best: unknown = null;
  for (const value of values) {
    if (value !== null && value !== undefined && (best === null || compareBson(value, best) === sign)) best = value;
  }
  return best;
}

/**
 * Whether mingo calls an expression operator in an accumulator's place: mingo looks an operator up among the
 * expression operators first and only then among the accumulators, giving the accumulator the group's documents
 * when the value it computes is an array (core/_internal.js `computeOperator`). `$min` and `$max` are both, so they
 * tell the two apart themselves: `$group` and `$bucket` compute a field with the group's documents as the root
 * document, which a document of a pipeline never is (an array elsewhere, such as `$$this` in `$reduce`, comes with
 * its document as the root).
 */
function inAccumulatorPlace(obj: unknown, options: unknown): boolean {
  return Array.isArray(obj) && (options as { local?: { root?: unknown } } | undefined)?.local?.root === obj;
}

/** `$min` (`sign` -1) or `$max` (1) in BSON order: the expression, or the accumulator in a `$group` field. */
function extreme(evaluate: Evaluate, collect: Collect, sign: -1 | 1): ExpressionOperator {
  const accumulate = accumulateExtreme(collect, sign === -1 ? '$min' : '$max');
  return (obj, expr, options) => {
    if (inAccumulatorPlace(obj, options)) return accumulate(obj as unknown as unknown[], expr, options);
    const operands = Array.isArray(expr) ? expr : [expr];
    const evaluated = evaluate(obj, operands, options) as unknown[];
    return extremeOf(operands.length === 1 && Array.isArray(evaluated[0]) ? (evaluated[0] as unknown[]) : evaluated, sign);
  };
}
