import { INVERSE_ORDER_FIELD, type InverseOrderSide } from '../schema';
import type { CompileContext, Stage } from './compile-context';
import { TEMP } from './reserved-fields';

/** The variable of a `mappedBy` join bound to the source row's documentId (to-many owners only). */
export const INVERSE_OWNER_VARIABLE = 'owner';

/** The stages that put the joined owner rows of a `mappedBy` side in their kept order, and what they need. */
export interface InverseOrderStages {
  readonly stages: Stage[];
  /** Temporary fields to `$unset` after them. */
  readonly temps: string[];
  /** `let` variables the stages read. */
  readonly let: Record<string, unknown>;
}

/**
 * The order of a to-many `mappedBy` side (Strapi keeps it per link: its inverse order column): the owner rows
 * sorted by their stored position for the source document, then by `id` (a row without a position, written
 * before positions were kept, gets null, which sorts first: https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/).
 * A to-one owner (`article.author`) keeps one number: `$sort` on it directly. A to-many owner
 * (`article.categories`) keeps `[{ d, n }]`: the `n` of the entry whose `d` is the source documentId (`$$owner`),
 * by `$filter` then `$max` (null when there is none; `$max` of an empty array or null is null,
 * https://www.mongodb.com/docs/manual/reference/operator/aggregation/max/).
 *
 * @example
 * inverseOrderStages(ctx, { field: 'author', toMany: false })
 * // { stages: [{ $sort: { '_inverseOrder.author': 1, id: 1 } }], temps: [], let: {} }
 */
export function inverseOrderStages(ctx: CompileContext, side: InverseOrderSide): InverseOrderStages {
  const path = `${INVERSE_ORDER_FIELD}.${side.field}`;
  if (!side.toMany) return { stages: [{ $sort: { [path]: 1, id: 1 } }], temps: [], let: {} };
  const temp = ctx.next(TEMP.inverseOrder);
  const mine = { $filter: { input: `$${path}`, cond: { $eq: ['$$this.d', `$$${INVERSE_OWNER_VARIABLE}`] } } };
  return {
    stages: [{ $addFields: { [temp]: { $max: { $map: { input: mine, in: '$$this.n' } } } } }, { $sort: { [temp]: 1, id: 1 } }],
    temps: [temp],
    let: { [INVERSE_OWNER_VARIABLE]: '$documentId' },
  };
}
