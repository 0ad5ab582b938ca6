import type { Filter, Pipeline } from '../engine/types';

/**
 * A statistic bounding how many rows one row may join through a relation: a pipeline on `collection` whose one
 * result document (none for an empty collection) holds the bound as `m`. Neither pipeline can be answered by an
 * index alone: a relation's array is multikey, and "multikey indexes cannot cover queries over array fields"
 * (https://www.mongodb.com/docs/manual/core/indexes/index-types/index-multikey/#covered-queries), and each
 * reads every document of its scope (documents/join-statistics runs them on small collections only).
 */
export interface FanOutStatistic {
  readonly collection: string;
  /** The rows it reads: a status scope (`{ _status }` or `{}`), its first `$match` when not empty. */
  readonly scope: Filter;
  readonly pipeline: Pipeline;
}

const first = (scope: Filter): Pipeline => (Object.keys(scope).length > 0 ? [{ $match: scope }] : []);

/** The document with the largest `m`: `$sort` and `$limit` (a top-k sort on MongoDB), `$max` being an accumulator. */
const LARGEST = [{ $sort: { m: -1 } }, { $limit: 1 }];

/**
 * The longest array stored at `field` of the rows of `collection` in `scope` (an owning to-many relation, multiple
 * media; the scope of the rows a read joins from): one such row joins at most that many rows through it. A value
 * that is not an array counts 1.
 *
 * @example
 * longestArray('articles', 'categories', { _status: 'published' }).pipeline
 * // [{ $match: { _status: 'published' } }, { $project: { _id: 0, m: { $cond: [{ $isArray: ['$categories'] }, { $size: '$categories' }, 1] } } }, { $sort: { m: -1 } }, { $limit: 1 }]
 */
export function longestArray(collection: string, field: string, scope: Filter): FanOutStatistic {
  const size = { $cond: [{ $isArray: [`$${field}`] }, { $size: `$${field}` }, 1] };
  return { collection, scope, pipeline: [...first(scope), { $project: { _id: 0, m: size } }, ...LARGEST] };
}

/**
 * The most rows of `collection` in `scope` holding one same value at `field` (an element of it, for an array):
 * the rows one row joins through a `mappedBy` side (`field` the owning attribute, the value its `documentId`), or
 * through `localizations` (`field` `documentId`). A value held twice by one row counts twice.
 *
 * @example
 * mostReferrers('articles', 'categories', { _status: 'published' }).pipeline
 * // [{ $match: { _status: 'published' } }, { $unwind: '$categories' }, { $group: { _id: '$categories', m: { $sum: 1 } } }, { $sort: { m: -1 } }, { $limit: 1 }]
 */
export function mostReferrers(collection: string, field: string, scope: Filter): FanOutStatistic {
  return { collection, scope, pipeline: [...first(scope), { $unwind: `$${field}` }, { $group: { _id: `$${field}`, m: { $sum: 1 } } }, ...LARGEST] };
}
