import type { Row } from '../../../types';
import { equalityLookup, equalityLookupOne, localValues } from '../../semantics/equality-lookup';
import { Lazy, pipelineOperators, type Iterator, type LookupOperator, type Options } from '../../semantics/mingo-runtime';
import type { MemoryCollection } from '../../storage/memory-collection';
import type { InnerPath } from '../fast-path';
import { planLookup } from '../lookup-shapes';

type LookupExpr = Parameters<LookupOperator>[1];

/** The path: the `$lookup` operator of mingo's context (the general path's `$lookup`) is {@link createFastLookup}. */
export const mingoIndexedLookup: InnerPath = { name: 'mingo-indexed-lookup', kind: 'inner', within: 'the general path (mingo\'s $lookup)' };

/**
 * A `$lookup` operator for mingo with MongoDB's semantics for every form: equality lookups (`localField` /
 * `foreignField`, never mingo's own form, which runs a sub-pipeline on the whole foreign collection) take the
 * rows whose foreign field equals a local value from a hash index of the `from` collection (exact, in natural
 * order) and run the sub-pipeline on them alone; the shapes the index cannot answer (a value that is an object
 * or an array, a dotted foreign field) scan with equality-lookup's `$match`. Uncorrelated lookups run their
 * sub-pipeline once per stage execution (at the top level: once per aggregate call) and reuse it for every
 * input row. Other pipeline-only lookups are mingo's.
 *
 * @example
 * createContext(createFastLookup((name) => collections.get(name)))
 */
export function createFastLookup(resolve: (name: string) => MemoryCollection | undefined): LookupOperator {
  return function $lookup(coll: Iterator, expr: LookupExpr, options: Options): Iterator {
    const plan = planLookup(expr);
    if (plan?.kind === 'uncorrelated') return uncorrelated(coll, expr, options);
    if (expr.localField === undefined && expr.foreignField === undefined) return pipelineOperators.$lookup(coll, expr, options);
    const from = plan && typeof expr.from === 'string' ? resolve(expr.from) : undefined;
    if (plan?.kind !== 'equality' || !from) return equalityLookup(coll, expr, options);
    const index = from.index(plan.foreignField);
    const { localField: _l, foreignField: _f, ...rest } = expr;
    const joined = { ...rest, let: expr.let ?? {}, pipeline: expr.pipeline ?? [] };
    return coll.map((obj) => {
      const selected = index.selectEqual(localValues(obj as Row, plan.localField));
      return selected ? lookupOne(obj, { ...joined, from: selected }, options) : equalityLookupOne(obj as Row, expr, options);
    });
  };
}

function uncorrelated(coll: Iterator, expr: LookupExpr, options: Options): Iterator {
  let joined: Row[] | undefined;
  return coll.map((obj) => {
    joined ??= lookupOne({}, expr, options)[expr.as] as Row[];
    return { ...(obj as Row), [expr.as]: joined.slice() };
  });
}

function lookupOne(obj: unknown, expr: LookupExpr, options: Options): Row {
  return pipelineOperators.$lookup(Lazy([obj]), expr, options).collect()[0] as Row;
}
