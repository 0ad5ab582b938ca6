import type { PopulateMap, PopulateNode } from '../query/types';
import type { ContentType } from '../schema/types';
import type { CompileContext, SourceLocale, Stage } from './compile-context';
import { compileEmbeddedPopulate } from './compile-embedded-populate';
import { compileFilters } from './compile-filters';
import { compilePopulatePage, compilePopulateTotal } from './compile-populate-page';
import { compileProjection } from './compile-projection';
import { compileSort } from './compile-sort';
import { firstOrNull } from './expressions';
import { inverseOrderStages, type InverseOrderStages } from './inverse-order-stages';
import { joinLookup, relationJoin, type RelationJoin } from './relation-join';
import { TEMP } from './reserved-fields';

/**
 * Compiles the populate map of rows of `owner` into stages that replace each populated attribute in place:
 * relations and media with a correlated `$lookup` (`as` = the attribute; to-one then unwrapped to the row or
 * null; `count` to `{ count }`), `localizations` with a lookup of the same document's other locales, components
 * and dynamic zones by rebuilding the embedded value (see compile-embedded-populate).
 *
 * @example
 * compilePopulate(ctx, article, { author: authorNode }, source)
 * // [{ $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [...], as: 'author' } }, { $addFields: { author: ... } }]
 */
export function compilePopulate(ctx: CompileContext, owner: ContentType, map: PopulateMap, source: SourceLocale): Stage[] {
  const stages: Stage[] = [];
  for (const [name, node] of Object.entries(map)) {
    const attribute = node.attribute;
    if (attribute.kind === 'component' || attribute.kind === 'dynamiczone') {
      stages.push(...compileEmbeddedPopulate(ctx, name, attribute, node, source, (join, target, sub, as) => relationLookup(ctx, join, target, sub, as, false)));
      continue;
    }
    const join = attribute.kind === 'localizations' ? localizationsJoin(ctx, owner) : relationJoin(ctx, attribute, source, name);
    const target = ctx.registry.contentType(attribute.target);
    // The total first: the page's `$lookup` replaces the stored keys (`localField`) with the joined rows.
    if (node.withCount) stages.push(...compilePopulateTotal(ctx, name, (as) => relationLookup(ctx, join, target, { ...node, count: true }, as, true)));
    stages.push(relationLookup(ctx, join, target, node, name, true));
    if (node.count) stages.push({ $addFields: { [name]: { $ifNull: [{ $arrayElemAt: [`$${name}`, 0] }, { count: 0 }] } } });
    else if (!join.multi) stages.push({ $addFields: { [name]: firstOrNull(`$${name}`) } });
  }
  return stages;
}

/**
 * The `$lookup` of one populated relation into `as`: the join (equality of `localField`/`foreignField`) and its
 * pipeline. `storedOrder`: order by the stored array (`let: { ids: '$<attribute>' }`) when the join has one and
 * no populate sort replaces it; false when the caller re-orders by the stored values itself (relations inside
 * components).
 */
export function relationLookup(ctx: CompileContext, join: RelationJoin, target: ContentType, node: PopulateNode, as: string, storedOrder: boolean): Stage {
  const order = storedOrder && join.multi && !node.count && node.sort.length === 0 ? join.order : undefined;
  const inverse = storedOrder && join.inverseOrder && !node.count && node.sort.length === 0 ? inverseOrderStages(ctx, join.inverseOrder) : undefined;
  return joinLookup(join, relationPipeline(ctx, join, target, node, order, storedOrder, inverse), as, order ? { ids: order.ids } : (inverse?.let ?? {}));
}

/**
 * The pipeline run on the target rows of one populated relation: the scope `$match`es, the node's filters, its
 * order (node sort + id, else relation order by `$indexOfArray` on the stored array `$$ids` when `order` is
 * given, else the kept order of a `mappedBy` side when `inverse` is (inverse-order-stages); otherwise, when `order` is
 * given, else id; none when the caller re-orders: `ordered` false), then `$count` when `count` is asked, else
 * `$limit: maxJoinedRows + 1` (to-many, when the read has a budget), nested populate and the `fields` projection.
 */
function relationPipeline(
  ctx: CompileContext,
  join: RelationJoin,
  target: ContentType,
  node: PopulateNode,
  order: RelationJoin['order'],
  ordered: boolean,
  inverse?: InverseOrderStages,
): Stage[] {
  const stages: Stage[] = [...join.head];
  const temps: string[] = [];
  if (node.filters) {
    const filter = compileFilters(ctx, target, node.filters, join.rows);
    stages.push(...filter.lookups, { $match: filter.match });
    temps.push(...filter.temps);
  }
  if (node.count) return [...stages, { $count: 'count' }];
  if (join.multi && node.sort.length > 0) {
    const sort = compileSort(ctx, target, node.sort, join.rows);
    stages.push(...sort.stages, { $sort: sort.sort });
    temps.push(...sort.temps);
  } else if (order) {
    const temp = ctx.next(TEMP.relationOrder);
    stages.push({ $addFields: { [temp]: { $indexOfArray: ['$$ids', `$${order.key}`] } } }, { $sort: { [temp]: 1, id: 1 } });
    temps.push(temp);
  } else if (inverse) {
    stages.push(...inverse.stages);
    temps.push(...inverse.temps);
  } else if (join.multi && ordered) {
    stages.push({ $sort: { id: 1 } });
  }
  if (temps.length > 0) stages.push({ $unset: temps });
  // The per-parent page (start, limit), then the budget's `$limit` (compile-populate-page).
  if (join.multi) stages.push(...compilePopulatePage(ctx, node));
  stages.push(...compilePopulate(ctx, target, node.populate, join.rows));
  const project = compileProjection(node.fields, node.populate);
  if (project) stages.push(project);
  return stages;
}

/** The same document's rows in the other locales, same status: equality on `documentId`, then `$ne` of the locale. */
export function localizationsJoin(ctx: CompileContext, owner: ContentType): RelationJoin {
  const head: Stage[] = [];
  if (owner.draftAndPublish) head.push({ $match: { _status: ctx.status } });
  head.push({ $match: { $expr: { $ne: ['$locale', '$$loc'] } } });
  return { from: owner.collectionName, localField: 'documentId', foreignField: 'documentId', let: { loc: '$locale' }, head, multi: true, rows: { kind: 'row' } };
}
