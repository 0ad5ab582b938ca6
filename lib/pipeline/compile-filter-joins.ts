import type { Filter } from '../engine/types';
import type { FilterNode, Status } from '../query/types';
import type { Attributes, ContentType, MediaAttribute, Registry, RelationAttribute } from '../schema/types';
import { UPLOAD_FILE_UID } from '../schema/types';
import { longestArray, mostReferrers, type FanOutStatistic } from './compile-fan-out';

/**
 * One relation filter of a read (pipeline/compile-filters' `$lookup` into `__rf<N>`), as the join budget sees it
 * (documents/filter-budget): which rows it joins per row of the level above, and the relation filters inside it.
 */
export interface FilterJoinNode {
  /** The filter path, outermost first, components included (`['author', 'articles', 'author']`). */
  readonly path: readonly string[];
  readonly collection: string;
  /** The joined rows' status scope (`{ _status }` when the target has draft & publish, else `{}`). */
  readonly scope: Filter;
  /**
   * true when a row joins at most one row here: an owning to-one relation or a single media to a target that is
   * not localized (a relation filter follows no per-row locale, so it may join every localization), not inside a
   * component.
   */
  readonly one: boolean;
  /** A statistic bounding how many rows one row joins here, when the join has one (none inside components). */
  readonly fanOut?: FanOutStatistic;
  readonly children: readonly FilterJoinNode[];
}

/**
 * The relation filters of a filter tree, as a tree of {@link FilterJoinNode}s (`$and`, `$or`, `$not` and
 * components crossed). Pure.
 *
 * @example
 * compileFilterJoins(registry, article, query.filters, 'published').map((n) => n.path.join('.')) // ['author']
 */
export function compileFilterJoins(registry: Registry, owner: ContentType, filters: FilterNode | undefined, status: Status): FilterJoinNode[] {
  return filters ? nodesOf(registry, status, owner, owner.attributes, filters, [], false) : [];
}

function nodesOf(registry: Registry, status: Status, owner: ContentType, attrs: Attributes, node: FilterNode, path: readonly string[], inComponent: boolean): FilterJoinNode[] {
  switch (node.type) {
    case 'and':
    case 'or':
      return node.children.flatMap((child) => nodesOf(registry, status, owner, attrs, child, path, inComponent));
    case 'not':
      return nodesOf(registry, status, owner, attrs, node.child, path, inComponent);
    case 'scalar':
      return [];
    case 'component':
      return nodesOf(registry, status, owner, registry.component(node.attribute.component).attributes, node.where, [...path, node.field], true);
    case 'relation': {
      const target = registry.contentType(node.attribute.kind === 'media' ? UPLOAD_FILE_UID : node.target);
      const scope = (ct: ContentType): Filter => (ct.draftAndPublish ? { _status: status } : {});
      const here = [...path, node.field];
      const fanOut = inComponent ? undefined : fanOutOf(node.attribute, owner, target, node.field, scope);
      const one = !inComponent && !target.localized && single(node.attribute);
      const children = nodesOf(registry, status, target, target.attributes, node.where, here, false);
      return [{ path: here, collection: target.collectionName, scope: scope(target), one, ...(fanOut && !one ? { fanOut } : {}), children }];
    }
  }
}

function single(attribute: RelationAttribute | MediaAttribute): boolean {
  return attribute.kind === 'media' ? !attribute.multiple : attribute.owner && !attribute.toMany;
}

/** The most rows one row joins through the attribute: its longest stored array, or its target's most referrers (mappedBy). */
function fanOutOf(attribute: RelationAttribute | MediaAttribute, owner: ContentType, target: ContentType, field: string, scope: (ct: ContentType) => Filter): FanOutStatistic | undefined {
  if (attribute.kind === 'relation' && !attribute.owner && attribute.mappedBy !== undefined) return mostReferrers(target.collectionName, attribute.mappedBy, scope(target));
  if (target.localized) return undefined; // each key joins every localization: bounded by the scope's rows alone
  return longestArray(owner.collectionName, field, scope(owner));
}
