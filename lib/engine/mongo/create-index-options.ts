import type { CreateIndexesOptions } from 'mongodb';
import type { IndexSpec } from '../types';

/**
 * The `createIndex` options of an engine index: its fixed name, `unique`, and the partial filter as
 * `partialFilterExpression` (a unique partial index only constrains the documents matching the filter:
 * https://www.mongodb.com/docs/manual/core/index-partial/; `$type` conditions are allowed since MongoDB 3.2).
 *
 * @example
 * await collection.createIndex(spec.keys, createIndexOptions(spec));
 */
export function createIndexOptions(spec: IndexSpec): CreateIndexesOptions {
  return {
    name: spec.name,
    unique: spec.unique ?? false,
    ...(spec.partialFilter ? { partialFilterExpression: spec.partialFilter } : {}),
  };
}
