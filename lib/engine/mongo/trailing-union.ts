import type { Pipeline } from '../types';

/**
 * The last stage of `pipeline` when it is `{ $unionWith: { coll, pipeline? } }` (or `{ $unionWith: coll }`): what
 * mongoEngine runs as a second aggregate inside a transaction, where $unionWith is not allowed.
 *
 * @example
 * trailingUnion([{ $match: {} }, { $unionWith: { coll: 'a', pipeline: [{ $count: 'n' }] } }]) // { coll: 'a', pipeline: [...] }
 */
export function trailingUnion(pipeline: Pipeline): { coll: string; pipeline: Pipeline } | null {
  const last = pipeline.at(-1);
  const union = last && Object.keys(last).length === 1 ? last.$unionWith : undefined;
  if (typeof union === 'string') return { coll: union, pipeline: [] };
  if (union === null || typeof union !== 'object') return null;
  const { coll, pipeline: stages, ...rest } = union as { coll?: unknown; pipeline?: unknown };
  if (typeof coll !== 'string' || Object.keys(rest).length > 0 || (stages !== undefined && !Array.isArray(stages))) return null;
  return { coll, pipeline: (stages ?? []) as Pipeline };
}
