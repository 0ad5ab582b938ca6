import { inverseOrderSide, type InverseOrderSide } from '../schema/inverse-order';
import type { MediaAttribute, RelationAttribute } from '../schema/types';
import { UPLOAD_FILE_UID } from '../schema/types';
import type { CompileContext, SourceLocale, Stage } from './compile-context';
import { targetScope } from './target-scope';

/**
 * The correlated head of a relation `$lookup` in the manual's concise form (MongoDB 5.0+): the equality of
 * `localField` and `foreignField`, `let` for the scope, then the scope `$match`es.
 */
export interface RelationJoin {
  readonly from: string;
  /** The source rows' field (a dotted path inside components) holding the keys. */
  readonly localField: string;
  /** The target field the keys equal: `documentId` / `id` (media) on the owning side, the owner on the mappedBy side. */
  readonly foreignField: string;
  /** `{ loc: '$locale' }` when the target must have the source row's locale; else empty. */
  readonly let: Record<string, unknown>;
  /** The scope `$match`es (status, locale), first in the sub-pipeline. */
  readonly head: Stage[];
  /** Several target rows (to-many, multiple media, mappedBy side). */
  readonly multi: boolean;
  /** Set when the stored array gives the order: the source field holding it and the target key field. */
  readonly order?: { readonly ids: string; readonly key: string };
  /** Set on a to-many `mappedBy` side whose owner rows keep their positions there (inverse-order-stages). */
  readonly inverseOrder?: InverseOrderSide;
  /** Locale scope of the joined rows, for their own relations. */
  readonly rows: SourceLocale;
}

/**
 * Builds the join of one relation or media attribute stored at `localField` (the attribute; a dotted path such
 * as `blocks.image` inside components, then `forceArray` is set). Why this form: `$lookup`'s
 * `localField`/`foreignField` equality is an index-backed match on the foreign field (an array local value
 * matches any element, an array foreign field matches when any element equals: "Use $lookup with an Array",
 * https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/), where a `$expr` `$in` can use no
 * index and `$expr` `$eq` no multikey index (https://www.mongodb.com/docs/manual/reference/operator/query/expr/).
 * Keys, each the first field of an index of indexesFor:
 * owning side `foreignField: 'documentId'` (media: `'id'`); mappedBy side `localField: 'documentId'`,
 * `foreignField: '<owner attribute>'` (to-one or to-many owner alike).
 *
 * @example
 * relationJoin(ctx, article.attributes.categories, source, 'categories')
 * // { from: 'categories', localField: 'categories', foreignField: 'documentId', let: {}, head: [{ $match: { _status: 'published' } }], multi: true, order: { ids: '$categories', key: 'documentId' }, ... }
 */
export function relationJoin(ctx: CompileContext, attribute: RelationAttribute | MediaAttribute, source: SourceLocale, localField: string, forceArray = false): RelationJoin {
  const target = ctx.registry.contentType(attribute.kind === 'media' ? UPLOAD_FILE_UID : attribute.target);
  const mappedBy = attribute.kind === 'relation' && !attribute.owner ? attribute.mappedBy : undefined;
  const scope = targetScope(ctx, target, source, mappedBy !== undefined, true);
  const vars: Record<string, unknown> = {};
  let keys: { localField: string; foreignField: string };
  let multi: boolean;
  let order: RelationJoin['order'];
  let inverseOrder: InverseOrderSide | undefined;
  if (mappedBy !== undefined) {
    keys = { localField: 'documentId', foreignField: mappedBy };
    multi = attribute.kind === 'relation' && attribute.toMany;
    if (multi) inverseOrder = inverseOrderSide(ctx.registry, target.attributes[mappedBy]);
  } else {
    keys = { localField, foreignField: attribute.kind === 'media' ? 'id' : 'documentId' };
    multi = forceArray || (attribute.kind === 'media' ? attribute.multiple : attribute.toMany);
    if (multi && !forceArray) order = { ids: `$${localField}`, key: keys.foreignField };
  }
  const head: Stage[] = [];
  if (Object.keys(scope.match).length > 0) head.push({ $match: scope.match });
  if (scope.sameRowLocale) {
    vars.loc = '$locale';
    head.push({ $match: { $expr: { $eq: ['$locale', '$$loc'] } } });
  }
  return { from: target.collectionName, ...keys, let: vars, head, multi, ...(order ? { order } : {}), ...(inverseOrder ? { inverseOrder } : {}), rows: scope.rows };
}

/**
 * The `$lookup` stage of a join: `{ from, localField, foreignField, let?, pipeline, as }` (`let` only when it
 * binds something).
 *
 * @example
 * joinLookup(join, [{ $project: { _id: 0, k: '$name' } }], '__s1')
 */
export function joinLookup(join: RelationJoin, pipeline: Stage[], as: string, extraLet: Record<string, unknown> = {}): Stage {
  const vars = { ...join.let, ...extraLet };
  const letPart = Object.keys(vars).length > 0 ? { let: vars } : {};
  return { $lookup: { from: join.from, localField: join.localField, foreignField: join.foreignField, ...letPart, pipeline, as } };
}
