import type { Engine, IndexSpec, Pipeline } from '../../lib/engine';

/** The indexes declared per collection (what `Engine.init` received). */
export type DeclaredIndexes = ReadonlyMap<string, readonly IndexSpec[]>;

type Stage = Record<string, unknown>;

const isObject = (value: unknown): value is Stage => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Every foreign match of `pipeline` (run on `collection`) that MongoDB cannot answer from an index, as messages;
 * empty when there is none. The rules come from the manual:
 * - a `$lookup` must match the foreign rows by equality through `localField`/`foreignField` (the concise form,
 *   MongoDB 5.0+, https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/): a `$lookup` with
 *   only `let` + `pipeline` correlates through `$expr`, which uses an index for `$eq`/`$lt`/`$lte`/`$gt`/`$gte`
 *   only and never a multikey one (https://www.mongodb.com/docs/manual/reference/operator/query/expr/), and one
 *   without `let` runs its whole sub-pipeline over the foreign collection;
 * - the `foreignField` must be the first key of an index declared for the foreign collection (or `_id`), so that
 *   the equality is an index seek (https://www.mongodb.com/docs/manual/core/index-compound/#index-prefixes);
 * - sub-pipelines (`$lookup`, `$unionWith`, `$facet`) follow the same rules.
 *
 * @example
 * indexViolations('articles', [{ $lookup: { from: 'authors', let: { v: '$author' }, pipeline: [], as: 'a' } }], indexes)
 * // ['articles: $lookup from authors as a: no localField/foreignField (a foreign match by $expr or a scan)']
 */
export function indexViolations(collection: string, pipeline: Pipeline, indexes: DeclaredIndexes, path = collection): string[] {
  const out: string[] = [];
  for (const stage of pipeline) {
    const lookup = stage.$lookup;
    const union = stage.$unionWith;
    const facet = stage.$facet;
    if (isObject(lookup)) out.push(...lookupViolations(lookup, indexes, path));
    else if (isObject(union) && Array.isArray(union.pipeline)) {
      const coll = typeof union.coll === 'string' ? union.coll : collection;
      out.push(...indexViolations(coll, union.pipeline as Pipeline, indexes, `${path} > $unionWith ${coll}`));
    } else if (isObject(facet)) {
      for (const [name, sub] of Object.entries(facet)) {
        if (Array.isArray(sub)) out.push(...indexViolations(collection, sub as Pipeline, indexes, `${path} > $facet ${name}`));
      }
    }
  }
  return out;
}

function lookupViolations(lookup: Stage, indexes: DeclaredIndexes, path: string): string[] {
  const from = typeof lookup.from === 'string' ? lookup.from : '?';
  const here = `${path}: $lookup from ${from} as ${String(lookup.as)}`;
  const out: string[] = [];
  const { localField, foreignField } = lookup;
  if (typeof localField !== 'string' || typeof foreignField !== 'string') {
    out.push(`${here}: no localField/foreignField (a foreign match by $expr or a scan)`);
  } else if (!leadsAnIndex(indexes.get(from), foreignField)) {
    out.push(`${here}: no index of ${from} starts with ${foreignField}`);
  }
  if (Array.isArray(lookup.pipeline)) out.push(...indexViolations(from, lookup.pipeline as Pipeline, indexes, `${path} > ${from}`));
  return out;
}

function leadsAnIndex(specs: readonly IndexSpec[] | undefined, field: string): boolean {
  return field === '_id' || (specs ?? []).some((spec) => Object.keys(spec.keys)[0] === field);
}

/**
 * `engine` with every aggregate checked by {@link indexViolations} against the indexes its `init` declared: a
 * pipeline with a foreign match that is not index-eligible on MongoDB rejects with the violations (a test that
 * reads through it then fails), whatever engine runs it. Everything else is the engine itself (same `stats`).
 *
 * @example
 * const engine = indexCheckedEngine(memoryEngine({ ephemeral: true }));
 */
export function indexCheckedEngine(engine: Engine): Engine {
  const declared = new Map<string, readonly IndexSpec[]>();
  const checked = new Proxy(engine, {
    get(target, key, receiver) {
      if (key === 'init') {
        return (collections: Parameters<Engine['init']>[0]) => {
          for (const c of collections) declared.set(c.name, c.indexes);
          return target.init(collections);
        };
      }
      if (key === 'aggregate') {
        return (collection: string, pipeline: Pipeline, options?: Parameters<Engine['aggregate']>[2]) => {
          const violations = indexViolations(collection, pipeline, declared);
          if (violations.length > 0) return Promise.reject(new Error(`not index-eligible on MongoDB:\n${violations.join('\n')}`));
          return target.aggregate(collection, pipeline, options);
        };
      }
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  INDEX_CHECKED.add(checked);
  return checked;
}

const INDEX_CHECKED = new WeakSet<Engine>();

/**
 * Whether `engine` comes from {@link indexCheckedEngine}: the engine contract must run on bare engines (its own
 * pipelines test operator semantics, and are deliberately not index-eligible).
 *
 * @example
 * isIndexChecked(testEngine()) // true
 */
export function isIndexChecked(engine: Engine): boolean {
  return INDEX_CHECKED.has(engine);
}
