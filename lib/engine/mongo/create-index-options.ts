import type { CreateIndexesOptions } from 'mongodb';
import type { IndexSpec } from '../types';

/**
 * The `createIndex` options of an engine index: its fixed name, `unique` when set, and the partial filter as
 * `partialFilterExpression` (a unique partial index only constrains the documents matching the filter:
 * https://www.mongodb.com/docs/manual/core/index-partial/; `$type` conditions are allowed since MongoDB 3.2).
 * `unique: false` is never sent: MongoDB 5.0 before 5.0.28 took an explicit `unique: false` for another
 * definition than none, a conflict on every start (SERVER-91562).
 *
 * @example
 * await collection.createIndex(spec.keys, createIndexOptions(spec));
 */
export function createIndexOptions(spec: IndexSpec): CreateIndexesOptions {
  return {
    name: spec.name,
    ...(spec.unique ? { unique: true } : {}),
    ...(spec.partialFilter ? { partialFilterExpression: spec.partialFilter } : {}),
  };
}
