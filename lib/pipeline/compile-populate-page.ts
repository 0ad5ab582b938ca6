import type { PopulateMap, PopulateNode } from '../query/types';
import type { CompileContext, Stage } from './compile-context';
import { TEMP } from './reserved-fields';

/** The field of a populated row where the totals of its `withCount` relations are answered: `meta.<rel>.count`. */
export const POPULATE_META_FIELD = 'meta';

/**
 * The per-parent page of one populated to-many relation, at the end of its `$lookup` sub-pipeline (after the
 * scope, filters and order; before nested populates, which then run on the kept rows only): `$skip` when `start`
 * is over 0, `$limit` when `limit` is given. MongoDB runs the sub-pipeline once per parent row, so each parent
 * keeps its own page, and a `$sort` followed by a `$limit` keeps only the top rows while sorting
 * (https://www.mongodb.com/docs/manual/core/aggregation-pipeline-optimization/#-sort----limit-coalescence).
 * `$limit` takes a positive integer (https://www.mongodb.com/docs/manual/reference/operator/aggregation/limit/):
 * a limit of 0 keeps no row with a `$match` no row passes (every row has an `id`). Also returns the budget
 * `$limit` (maxJoinedRows + 1) when the page does not already keep fewer rows.
 *
 * @example
 * compilePopulatePage(ctx, { ...node, start: 6, limit: 6 }) // [{ $skip: 6 }, { $limit: 6 }]
 */
export function compilePopulatePage(ctx: CompileContext, node: PopulateNode): Stage[] {
  const stages: Stage[] = [];
  if (node.start !== undefined && node.start > 0) stages.push({ $skip: node.start });
  if (node.limit === 0) return [...stages, { $match: { id: { $in: [] } } }];
  if (node.limit !== undefined) stages.push({ $limit: node.limit });
  // One row over the read's populate budget is enough to know the join is over it: nested populates and the
  // server's work stop there (the engines and the reader count the total, see documents/populate-budget).
  if (ctx.maxJoinedRows !== undefined && (node.limit === undefined || node.limit > ctx.maxJoinedRows + 1)) stages.push({ $limit: ctx.maxJoinedRows + 1 });
  return stages;
}

/**
 * The total of a `withCount` relation beside its page: one more `$lookup` of the same join (same `localField`/
 * `foreignField`, so index-backed as the page's) whose sub-pipeline is the populate's `count` (scope, filters,
 * `$count`), into a temporary field, BEFORE the page's `$lookup` (which replaces the keys it reads), then `meta.<name>: { count }` merged into the parent row's `meta` (`{ count: 0 }`
 * when nothing joins), as Strapi's `populate[<rel>][count]` answers it. `countLookup(as)` builds that lookup.
 *
 * @example
 * compilePopulateTotal(ctx, 'articles', (as) => relationLookup(ctx, join, target, { ...node, count: true }, as, true))
 * // [{ $lookup: { ..., as: '__pc3' } }, { $addFields: { meta: { $mergeObjects: [{ $ifNull: ['$meta', {}] }, { articles: { $ifNull: [{ $arrayElemAt: ['$__pc3', 0] }, { count: 0 }] } }] } } }, { $unset: ['__pc3'] }]
 */
export function compilePopulateTotal(ctx: CompileContext, name: string, countLookup: (as: string) => Stage): Stage[] {
  const temp = ctx.next(TEMP.populateTotal);
  return [
    countLookup(temp),
    { $addFields: { [POPULATE_META_FIELD]: { $mergeObjects: [{ $ifNull: [`$${POPULATE_META_FIELD}`, {}] }, { [name]: { $ifNull: [{ $arrayElemAt: [`$${temp}`, 0] }, { count: 0 }] } }] } } },
    { $unset: [temp] },
  ];
}

/** Whether a populate level answers totals (`withCount` on one of its relations): its rows then keep `meta`. */
export function answersTotals(map: PopulateMap): boolean {
  return Object.values(map).some((node) => node.withCount === true);
}
