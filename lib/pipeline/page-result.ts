import type { Pipeline, Row } from '../engine/types';
import { POSITION_FIELD, TOTAL_FIELD } from './reserved-fields';

export { POSITION_FIELD, TOTAL_FIELD };

/**
 * Stages that are the very objects at the start of the outer pipeline (not copies): what {@link countUnion} needs
 * for an engine to count its total from the outer run (the Engine port's contract, lib/engine/types).
 */
export type SharedStages = Pipeline;

/** A list read's result, split: the page rows in page order, and the total (undefined when it was not asked). */
export interface PageResult {
  readonly rows: Row[];
  readonly total: number | undefined;
}

/** The document `{ $count: '__total' }` outputs: that one key only (a page row always has `id`, `documentId`...). */
function isTotal(doc: Row): boolean {
  if (typeof doc[TOTAL_FIELD] !== 'number') return false;
  for (const key in doc) if (key !== TOTAL_FIELD) return false;
  return true;
}

/**
 * Splits the result documents of a {@link compileFind} pipeline: the document holding `__total`, wherever it
 * appears, and the page rows ordered by `__pos`. The manual leaves the output order of `$unionWith` (and of
 * `$setWindowFields`) unspecified (https://www.mongodb.com/docs/manual/reference/operator/aggregation/unionWith/),
 * so neither where the total comes nor the order the rows arrive in is relied upon. `$count` outputs nothing when
 * nothing matched (https://www.mongodb.com/docs/manual/reference/operator/aggregation/count/): the total is then 0.
 * `withCount`: whether the pipeline counted (otherwise the total is undefined).
 *
 * @example
 * readPage([{ __total: 7 }, { id: 2, __pos: 2 }, { id: 1, __pos: 1 }], true) // { rows: [{ id: 1, ... }, { id: 2, ... }], total: 7 }
 */
export function readPage(docs: readonly Row[], withCount: boolean): PageResult {
  let total: number | undefined = withCount ? 0 : undefined;
  const rows: Row[] = [];
  for (const doc of docs) {
    if (withCount && isTotal(doc)) total = doc[TOTAL_FIELD] as number;
    else rows.push(doc);
  }
  if (!rows.every((row, i) => i === 0 || position(rows[i - 1]!) <= position(row))) rows.sort((a, b) => position(a) - position(b));
  return { rows, total };
}

function position(row: Row): number {
  const pos = row[POSITION_FIELD];
  return typeof pos === 'number' ? pos : Number.MAX_SAFE_INTEGER;
}

/**
 * `$setWindowFields` numbering the page rows by the page's sort (`$documentNumber`, MongoDB 5.0+,
 * https://www.mongodb.com/docs/manual/reference/operator/aggregation/documentNumber/): on at most `limit` rows,
 * after `$skip`/`$limit`. The sort always ends with the unique `id`, so the numbering is the page order.
 *
 * @example
 * numberRows({ id: 1 }) // { $setWindowFields: { sortBy: { id: 1 }, output: { __pos: { $documentNumber: {} } } } }
 */
export function numberRows(sort: Record<string, 1 | -1>): Row {
  return { $setWindowFields: { sortBy: sort, output: { [POSITION_FIELD]: { $documentNumber: {} } } } };
}

/**
 * `$unionWith` the same collection, through the same match stages (the very same stage objects: relation-filter
 * lookups included; the Engine port lets an engine count them from the outer run, see lib/engine/types), then `{ $count: '__total' }` (MongoDB 4.4+,
 * https://www.mongodb.com/docs/manual/reference/operator/aggregation/unionWith/): the total as one small document
 * of the same aggregation.
 *
 * @example
 * countUnion('articles', [{ $match: { _status: 'published' } }])
 * // { $unionWith: { coll: 'articles', pipeline: [{ $match: { _status: 'published' } }, { $count: '__total' }] } }
 */
export function countUnion(collection: string, match: SharedStages): Row {
  return { $unionWith: { coll: collection, pipeline: [...match, { $count: TOTAL_FIELD }] } };
}
