import type { Pipeline } from './types';

/**
 * The collection and sub-pipeline of a `{ $unionWith: coll }` or `{ $unionWith: { coll, pipeline? } }` stage
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/unionWith/), or null for any other stage
 * or form. The memory engine runs the union itself (execution/fast-paths/union-pipeline, page-total); mongoEngine runs a trailing one as a second
 * aggregate inside a transaction, where `$unionWith` is not allowed.
 *
 * @example
 * unionStage({ $unionWith: { coll: 'a', pipeline: [{ $count: 'n' }] } }) // { coll: 'a', pipeline: [{ $count: 'n' }] }
 */
export function unionStage(stage: Record<string, unknown> | undefined): { coll: string; pipeline: Pipeline } | null {
  const union = stage && Object.keys(stage).length === 1 ? stage.$unionWith : undefined;
  if (typeof union === 'string') return { coll: union, pipeline: [] };
  if (union === null || typeof union !== 'object' || Array.isArray(union)) return null;
  const { coll, pipeline, ...rest } = union as { coll?: unknown; pipeline?: unknown };
  if (typeof coll !== 'string' || Object.keys(rest).length > 0 || (pipeline !== undefined && !Array.isArray(pipeline))) return null;
  return { coll, pipeline: (pipeline ?? []) as Pipeline };
}
