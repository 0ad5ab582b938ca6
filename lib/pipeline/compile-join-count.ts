import type { Filter, Pipeline } from '../engine/types';
import type { FilterNode, PopulateMap, PopulateNode, Query } from '../query/types';
import type { ComponentAttribute, ContentType, DynamicZoneAttribute, MediaAttribute, Registry, RelationAttribute } from '../schema/types';
import type { CompileContext, SourceLocale, Stage } from './compile-context';
import { longestArray, mostReferrers, type FanOutStatistic } from './compile-fan-out';
import { compileFilters } from './compile-filters';
import { readRoot } from './compile-find';
import { localizationsJoin, relationLookup } from './compile-populate';
import { relationJoin, type RelationJoin } from './relation-join';
import { TEMP } from './reserved-fields';

/**
 * One populated relation, media or `localizations` of a read, as its join count sees it (documents/join-budget):
 * the join of compile-populate (same `localField`/`foreignField`, scope and populate filters), reduced to the
 * joined rows' `id`s.
 */
export interface JoinCountNode {
  /** The populate path, outermost first, components included (`['seo', 'shareImage']`), as the meters name it. */
  readonly path: readonly string[];
  /** The collection of the joined rows. */
  readonly collection: string;
  /** The joined rows' status scope (`{ _status }` when the target has draft & publish, else `{}`): what bounds them. */
  readonly scope: Filter;
  /**
   * true when a row joins at most one row here, whatever the data: an owning to-one relation or a single media,
   * not inside a repeatable component or a dynamic zone (the unique `{documentId, locale, _status}` and `{id}`
   * indexes allow one target row per key). Every other join may fan out.
   */
  readonly one: boolean;
  /** A statistic bounding how many rows one row joins here, when the join has one (none inside components). */
  readonly fanOut?: FanOutStatistic;
  /** The most rows one row keeps here: the populate's per-parent `limit` (populate[<rel>][limit]), when given. */
  readonly limit?: number;
  /**
   * The `$lookup` (without `as`): the populate's join of one row, its head and filters, then
   * `$limit: maxJoinedRows + 1` and `{ _id, id }` only. A paged populate (`start`/`limit`) counts the rows it
   * keeps: its own lookup (order and page included, compile-populate), reduced to `{ _id, id }`.
   */
  readonly lookup: Readonly<Record<string, unknown>>;
  readonly children: readonly JoinCountNode[];
}

/** The join count of a read: the collection of its rows, their status scope and the joins of its populate. */
export interface JoinCountPlan {
  readonly collection: string;
  readonly scope: Filter;
  /** The read's filters keep at most one row (see {@link selectsOneRow}). */
  readonly oneRow: boolean;
  readonly nodes: readonly JoinCountNode[];
}

interface Walk {
  readonly ctx: CompileContext;
  readonly limit: number;
}

/**
 * The joins a read's populate makes, as a tree of {@link JoinCountNode}s, in the order compilePopulate and
 * compileEmbeddedPopulate emit their `$lookup`s: relations, media and `localizations` at every depth, inside
 * components and dynamic zones too (one node per component type and attribute, as the populate's lookups);
 * `count` populates join nothing counted. Needs the read's `maxJoinedRows`.
 *
 * @example
 * compileJoinCountPlan(registry, article, query).nodes.map((n) => n.path.join('.')) // ['author', 'categories', 'seo.shareImage']
 */
export function compileJoinCountPlan(registry: Registry, ct: ContentType, query: Query & { readonly maxJoinedRows: number }): JoinCountPlan {
  const root = readRoot(registry, ct, query);
  const w: Walk = { ctx: root.ctx, limit: query.maxJoinedRows + 1 };
  const scope = ct.draftAndPublish ? { _status: query.status } : {};
  const oneRow = root.source.kind !== 'row' && selectsOneRow(query.filters);
  return { collection: ct.collectionName, scope, oneRow, nodes: populateNodes(w, ct, query.populate, root.source, []) };
}

/**
 * Whether filters keep at most one row of one locale and status: `$eq` (alone or in a top-level `$and`) on `id`,
 * on `documentId` or on a `unique` or `uid` attribute, which their unique indexes allow once per locale and status
 * (engine/indexes; json and blocks values have no such index). A frontend's page read by its slug is one.
 *
 * @example
 * selectsOneRow({ type: 'scalar', field: 'slug', attribute, operator: '$eq', value: 'home' }) // true (slug: uid)
 */
export function selectsOneRow(filters: FilterNode | undefined): boolean {
  const parts = filters?.type === 'and' ? filters.children : filters ? [filters] : [];
  return parts.some((f) => f.type === 'scalar' && f.operator === '$eq' && f.value !== null && typeof f.value !== 'object'
    && (f.field === 'id' || f.field === 'documentId'
      || (!f.attribute.system && (f.attribute.unique || f.attribute.type === 'uid') && f.attribute.type !== 'json' && f.attribute.type !== 'blocks')));
}

function populateNodes(w: Walk, owner: ContentType, map: PopulateMap, source: SourceLocale, path: readonly string[]): JoinCountNode[] {
  const out: JoinCountNode[] = [];
  for (const [name, node] of Object.entries(map)) {
    const attribute = node.attribute;
    if (attribute.kind === 'component') out.push(...itemNodes(w, attribute.component, node.populate, source, [...path, name], [name], attribute.repeatable));
    else if (attribute.kind === 'dynamiczone') out.push(...zoneNodes(w, name, attribute, node, source, path));
    else if (!node.count) {
      const join = attribute.kind === 'localizations' ? localizationsJoin(w.ctx, owner) : relationJoin(w.ctx, attribute, source, name);
      const target = w.ctx.registry.contentType(attribute.target);
      const one = attribute.kind !== 'localizations' && singleJoin(attribute, false);
      // The rows one row joins: those of one key (mappedBy: its documentId in the owning field; localizations:
      // its documentId), else the elements of its own array.
      const keyed = attribute.kind === 'localizations' || (attribute.kind === 'relation' && !attribute.owner);
      const fanOut = one ? undefined : keyed ? mostReferrers(join.from, join.foreignField, statusScope(w, target)) : longestArray(owner.collectionName, name, statusScope(w, owner));
      out.push(countNode(w, join, target, node, [...path, name], one, fanOut));
    }
  }
  return out;
}

/** The joins inside a dynamic zone: per component type kept (`on`, else all), its populated attributes. */
function zoneNodes(w: Walk, name: string, attribute: DynamicZoneAttribute, node: PopulateNode, source: SourceLocale, path: readonly string[]): JoinCountNode[] {
  const out: JoinCountNode[] = [];
  for (const uid of attribute.components) {
    const sub = node.on ? node.on[uid] : node;
    if (sub) out.push(...itemNodes(w, uid, sub.populate, source, [...path, name], [name], true));
  }
  return out;
}

/**
 * The joins inside the items of component `uid` stored at `segs` (the dotted `localField` of compile-embedded-
 * populate); `array`: some segment holds several items (a repeatable component, a dynamic zone).
 */
function itemNodes(w: Walk, uid: string, map: PopulateMap, source: SourceLocale, path: readonly string[], segs: readonly string[], array: boolean): JoinCountNode[] {
  const attributes = w.ctx.registry.component(uid).attributes;
  const out: JoinCountNode[] = [];
  for (const [name, sub] of Object.entries(map)) {
    const a = attributes[name];
    if (a?.kind === 'component') {
      out.push(...itemNodes(w, a.component, sub.populate, source, [...path, name], [...segs, name], array || (a as ComponentAttribute).repeatable));
    } else if (a?.kind === 'relation' || a?.kind === 'media') {
      const join = relationJoin(w.ctx, a, source, [...segs, name].join('.'), true);
      out.push(countNode(w, join, w.ctx.registry.contentType(a.target), sub, [...path, name], singleJoin(a, array)));
    }
  }
  return out;
}

/** Whether the join of `attribute` yields at most one row per source row (see JoinCountNode.one). */
function singleJoin(attribute: RelationAttribute | MediaAttribute, array: boolean): boolean {
  if (array) return false;
  return attribute.kind === 'media' ? !attribute.multiple : attribute.owner && !attribute.toMany;
}

/** `{ _status }` of the read for a target with draft & publish, else `{}`. */
function statusScope(w: Walk, target: ContentType): Filter {
  return target.draftAndPublish ? { _status: w.ctx.status } : {};
}

function countNode(w: Walk, join: RelationJoin, target: ContentType, node: PopulateNode, path: readonly string[], one: boolean, fanOut?: FanOutStatistic): JoinCountNode {
  const paged = node.limit !== undefined || (node.start ?? 0) > 0;
  return {
    path,
    collection: target.collectionName,
    scope: statusScope(w, target),
    // A per-parent limit of 1 keeps at most one row, whatever the data.
    one: one || (node.limit !== undefined && node.limit <= 1),
    ...(fanOut ? { fanOut } : {}),
    ...(node.limit !== undefined ? { limit: node.limit } : {}),
    lookup: paged ? pagedLookup(w, join, target, node) : joinLookupOf(w, join, target, node),
    children: node.count ? [] : populateNodes(w, target, node.populate, join.rows, path),
  };
}

/** The populate's join of one row, its head and filters, then `$limit: maxJoinedRows + 1` and `{ _id, id }`. */
function joinLookupOf(w: Walk, join: RelationJoin, target: ContentType, node: PopulateNode): Readonly<Record<string, unknown>> {
  const pipeline: Stage[] = [...join.head];
  if (node.filters) {
    const filter = compileFilters(w.ctx, target, node.filters, join.rows);
    pipeline.push(...filter.lookups, { $match: filter.match });
  }
  pipeline.push({ $limit: w.limit }, { $project: { id: 1 } });
  const letPart = Object.keys(join.let).length > 0 ? { let: join.let } : {};
  return { from: join.from, localField: join.localField, foreignField: join.foreignField, ...letPart, pipeline };
}

/** A paged populate's own `$lookup` (the rows it keeps, in its order), nothing nested, reduced to `{ _id, id }`. */
function pagedLookup(w: Walk, join: RelationJoin, target: ContentType, node: PopulateNode): Readonly<Record<string, unknown>> {
  const kept: PopulateNode = { ...node, fields: [], populate: {}, withCount: false };
  const { as: _as, ...lookup } = (relationLookup(w.ctx, join, target, kept, TEMP.joinCount, true) as { $lookup: Record<string, unknown> }).$lookup;
  return { ...lookup, pipeline: [...(lookup.pipeline as Stage[]), { $project: { id: 1 } }] };
}

/** A join count step's result document: a parent row (`id`), the index of a child join, a row it joined. */
export interface JoinCountPair {
  readonly p: number;
  readonly n: number;
  readonly j: { readonly id: number };
}

/**
 * One step of a join count: from the parent rows given by `rows` (a read's rows, compileFindRows, or
 * {@link joinCountRows}), the joins of `children` (each `$lookup` into `__j<n>`), one {@link JoinCountPair} per
 * joined row, at most `cap` in all: the lists of joined rows in one array per parent (`j`), unwound with their
 * index (`n`), then unwound into pairs. MongoDB's stages pass documents on one at a time, and none of these can be
 * moved before a `$lookup` (https://www.mongodb.com/docs/manual/core/aggregation-pipeline-optimization/): once the
 * `$limit` has its `cap` pairs, no `$lookup` runs for the parent rows left.
 *
 * @example
 * compileJoinCountStep([{ $match: { id: { $in: [1, 2] } } }], plan.nodes[0].children, 9001)
 */
export function compileJoinCountStep(rows: Pipeline, children: readonly JoinCountNode[], cap: number): Pipeline {
  return [
    ...rows,
    ...children.map((child, n) => ({ $lookup: { ...child.lookup, as: `${TEMP.joinCount}${n}` } })),
    { $project: { _id: 0, p: '$id', j: children.map((_child, n) => `$${TEMP.joinCount}${n}`) } },
    { $unwind: { path: '$j', includeArrayIndex: 'n' } },
    { $unwind: '$j' },
    { $limit: cap },
  ];
}

/**
 * The rows of one collection a join count continues from, by their unique `id` (the `id` index).
 *
 * @example
 * joinCountRows([3, 7]) // { $match: { id: { $in: [3, 7] } } }
 */
export function joinCountRows(ids: readonly number[]): Stage {
  return { $match: { id: { $in: [...ids] } } };
}
