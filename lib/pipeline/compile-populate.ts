import type { PopulateMap, PopulateNode } from '../query/types';
import type { ContentType } from '../schema/types';
import type { CompileContext, SourceLocale, Stage } from './compile-context';
import { compileEmbeddedPopulate } from './compile-embedded-populate';
import { compileFilters } from './compile-filters';
import { compileProjection } from './compile-projection';
import { compileSort } from './compile-sort';
import { firstOrNull } from './expressions';
import { relationJoin, type RelationJoin } from './relation-join';

/**
 * Compiles the populate map of rows of `owner` into stages that replace each populated attribute in place:
 * relations and media with a correlated `$lookup` (`as` = the attribute; to-one then unwrapped to the row or
 * null; `count` to `{ count }`), `localizations` with a lookup of the same document's other locales, components
 * and dynamic zones by rebuilding the embedded value (see compile-embedded-populate).
 *
 * @example
 * compilePopulate(ctx, article, { author: authorNode }, source)
 * // [{ $lookup: { from: 'authors', let: { v: '$author' }, pipeline: [...], as: 'author' } }, { $addFields: { author: ... } }]
 */
export function compilePopulate(ctx: CompileContext, owner: ContentType, map: PopulateMap, source: SourceLocale): Stage[] {
  const stages: Stage[] = [];
  for (const [name, node] of Object.entries(map)) {
    const attribute = node.attribute;
    if (attribute.kind === 'component' || attribute.kind === 'dynamiczone') {
      stages.push(...compileEmbeddedPopulate(ctx, name, attribute, node, source, (join, target, sub, embedded) => relationPipeline(ctx, join, target, sub, embedded)));
      continue;
    }
    const join = attribute.kind === 'localizations' ? localizationsJoin(ctx, owner) : relationJoin(ctx, attribute, source, `$${name}`);
    const target = ctx.registry.contentType(attribute.target);
    stages.push({ $lookup: { from: join.from, let: join.let, pipeline: relationPipeline(ctx, join, target, node, false), as: name } });
    if (node.count) stages.push({ $addFields: { [name]: { $ifNull: [{ $arrayElemAt: [`$${name}`, 0] }, { count: 0 }] } } });
    else if (!join.multi) stages.push({ $addFields: { [name]: firstOrNull(`$${name}`) } });
  }
  return stages;
}

/**
 * The pipeline run on the target rows of one populated relation: the join head, the node's filters, its order
 * (node sort + id, else relation order by `$indexOfArray` on the stored array, else id), then `$count` when
 * `count` is asked, else nested populate and the `fields` projection. `embedded`: the caller re-orders by the
 * stored values itself (relations inside components).
 */
export function relationPipeline(ctx: CompileContext, join: RelationJoin, target: ContentType, node: PopulateNode, embedded: boolean): Stage[] {
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
  } else if (join.multi && join.order && !embedded) {
    const order = ctx.next('__o');
    stages.push({ $addFields: { [order]: { $indexOfArray: [join.order.ids, `$${join.order.key}`] } } }, { $sort: { [order]: 1, id: 1 } });
    temps.push(order);
  } else if (join.multi) {
    stages.push({ $sort: { id: 1 } });
  }
  if (temps.length > 0) stages.push({ $unset: temps });
  stages.push(...compilePopulate(ctx, target, node.populate, join.rows));
  const project = compileProjection(node.fields, node.populate);
  if (project) stages.push(project);
  return stages;
}

/** The same document's rows in the other locales, same status. */
function localizationsJoin(ctx: CompileContext, owner: ContentType): RelationJoin {
  const head: Stage[] = [{ $match: { $expr: { $eq: ['$documentId', '$$d'] } } }];
  if (owner.draftAndPublish) head.push({ $match: { _status: ctx.status } });
  head.push({ $match: { $expr: { $ne: ['$locale', '$$loc'] } } });
  return { from: owner.collectionName, let: { d: '$documentId', loc: '$locale' }, head, multi: true, rows: { kind: 'row' } };
}
