import { isDeepStrictEqual } from 'node:util';
import type { AggregateOptions, Engine, Pipeline, Row } from '../../lib/engine';
import { aggregateVariants } from '../../lib/engine/memory/memory-engine';
import { FAST_PATH_NAMES } from '../../lib/engine/memory/execution/registry';

/**
 * The variants every checked aggregate runs: as configured, then with each fast path switched off in turn, then
 * with all of them off (the general path alone: mingo with the manual's semantics).
 */
export const FAST_PATH_VARIANTS: readonly (readonly string[])[] = [[], ...FAST_PATH_NAMES.map((name) => [name]), FAST_PATH_NAMES];

/** A difference between the answer with every fast path on and the answer with some switched off. */
export interface FastPathDifference {
  readonly off: readonly string[];
  readonly collection: string;
  readonly pipeline: Pipeline;
  readonly expected: Row[] | string;
  readonly actual: Row[] | string;
}

/**
 * Compares the results of one aggregate's variants ({@link FAST_PATH_VARIANTS}): the same rows in the same order,
 * or the same error (class and message) in every one. Gives every difference.
 *
 * @example
 * differences('articles', pipeline, FAST_PATH_VARIANTS, await aggregateVariants(engine, 'articles', pipeline, {}, FAST_PATH_VARIANTS))
 */
export function differences(collection: string, pipeline: Pipeline, variants: readonly (readonly string[])[], results: readonly (Row[] | Error)[]): FastPathDifference[] {
  const shown = (r: Row[] | Error): Row[] | string => (r instanceof Error ? `${r.constructor.name}: ${r.message}` : r);
  const expected = shown(results[0]!);
  const out: FastPathDifference[] = [];
  results.forEach((result, i) => {
    const actual = shown(result);
    if (i > 0 && !isDeepStrictEqual(actual, expected)) out.push({ off: variants[i]!, collection, pipeline, expected, actual });
  });
  return out;
}

/**
 * `engine` (a memory engine) with every `aggregate` run once per variant of {@link FAST_PATH_VARIANTS} on the same
 * state: the first variant's result (or error) is the answer; any variant that answers otherwise is a failed
 * proof that the fast path switched off is only an optimisation, recorded in `found` and thrown (the request that
 * read it then fails too). helpers/test-engine's testEngine() gives it to the HTTP suites and the corpus replay
 * (`CR_FAST_PATHS_CHECK=0` turns it off).
 *
 * @example
 * const found: FastPathDifference[] = [];
 * const engine = fastPathCheckedEngine(memoryEngine({ ephemeral: true }), found);
 */
export function fastPathCheckedEngine(engine: Engine, found: FastPathDifference[]): Engine {
  return new Proxy(engine, {
    get(target, key, receiver) {
      if (key === 'aggregate') {
        return async (collection: string, pipeline: Pipeline, options: AggregateOptions = {}) => {
          const results = await aggregateVariants(target, collection, pipeline, options, FAST_PATH_VARIANTS);
          const diffs = differences(collection, pipeline, FAST_PATH_VARIANTS, results);
          if (diffs.length > 0) {
            found.push(...diffs);
            throw new Error(`fast paths changed an answer: ${describe(diffs[0]!)}`);
          }
          const answer = results[0]!;
          if (answer instanceof Error) throw answer;
          return answer;
        };
      }
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** One difference, readable in a test failure. */
export function describe(diff: FastPathDifference): string {
  return `with ${diff.off.length === FAST_PATH_NAMES.length ? 'every fast path' : diff.off.join(', ')} off, ${diff.collection} ${JSON.stringify(diff.pipeline)}\n` +
    `expected ${JSON.stringify(diff.expected)}\nreceived ${JSON.stringify(diff.actual)}`;
}
