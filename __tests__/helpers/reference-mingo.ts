import type { Pipeline, Row } from '../../lib/engine';
import { Aggregator, createContext, pipelineOperators } from '../../lib/engine/memory/mingo-runtime';

/**
 * The reference the memory engine's fast paths are compared with: mingo's general path (its own `$lookup`, no
 * indexes, no fast paths) with the aggregation comparison operators MongoDB defines (`$eq`, `$in`, `$lt`...
 * compare value and type in the BSON order; mingo's own follow the query semantics: see
 * lib/engine/memory/expression-comparison.ts). `collections` resolves `$lookup`'s `from`.
 *
 * @example
 * expect(await engine.aggregate('a', pipeline)).toEqual(referenceAggregate(rows, pipeline, (n) => stored.get(n) ?? []));
 */
export function referenceAggregate(rows: readonly Row[], pipeline: Pipeline, collections: (name: string) => Row[]): Row[] {
  const context = createContext(pipelineOperators.$lookup);
  return new Aggregator(pipeline, { scriptEnabled: false, collectionResolver: collections, context } as never).run(rows as Row[]) as Row[];
}
