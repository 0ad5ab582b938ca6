import type { Filter } from '../engine/types';
import type { FilterNode } from '../query/types';
import type { Attributes, ContentType, MediaAttribute, RelationAttribute } from '../schema/types';
import { UPLOAD_FILE_UID } from '../schema/types';
import type { CompileContext, SourceLocale, Stage } from './compile-context';
import { compileScalarFilter } from './compile-scalar-filter';
import { TEMP } from './reserved-fields';
import { targetScope } from './target-scope';

/** A compiled filter tree: the relation-filter `$lookup`s to run first, the `$match` that uses them, their temp fields. */
export interface CompiledFilter {
  readonly lookups: Stage[];
  readonly match: Filter;
  readonly temps: string[];
}

interface Walk {
  readonly ctx: CompileContext;
  readonly source: SourceLocale;
  readonly lookups: Stage[];
  readonly temps: string[];
}

/**
 * Compiles a filter tree on the rows of `owner`. Scalar and component filters become plain query conditions
 * (dotted paths, `$elemMatch` for repeatable components); every relation/media filter becomes ONE correlated
 * `$lookup` in the concise form (localField/foreignField + pipeline, MongoDB 5.0+) into `__rf<N>` that keeps at
 * most one matching target row (nested relation filters nest the same way inside its pipeline), tested in the
 * `$match` by `{ __rf<N>: { $size: 0 } }` ("no related row") or its `$nor` ("some related row matches").
 * The join equality is on the target's `documentId` / `id` / owning field, which the indexes cover, and the
 * root `$match` has no `$expr`: https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/
 * ("Correlated Subqueries Using Concise Syntax").
 *
 * @example
 * compileFilters(ctx, article, { type: 'scalar', field: 'views', attribute, operator: '$gt', value: 10 }, source)
 * // { lookups: [], match: { views: { $gt: 10 } }, temps: [] }
 */
export function compileFilters(ctx: CompileContext, owner: ContentType, node: FilterNode, source: SourceLocale): CompiledFilter {
  const walk: Walk = { ctx, source, lookups: [], temps: [] };
  const match = compileNode(walk, owner.attributes, node, '');
  return { lookups: walk.lookups, match, temps: walk.temps };
}

function compileNode(w: Walk, attrs: Attributes, node: FilterNode, prefix: string): Filter {
  switch (node.type) {
    case 'and':
    case 'or': {
      const parts = node.children.map((c) => compileNode(w, attrs, c, prefix));
      if (node.type === 'and' && parts.length === 1) return parts[0]!;
      return parts.length === 0 ? {} : { [`$${node.type}`]: parts };
    }
    case 'not':
      return negate(compileNode(w, attrs, node.child, prefix));
    case 'scalar':
      return compileScalarFilter(`${prefix}${node.field}`, node.attribute, node.operator, node.value);
    case 'component': {
      const component = w.ctx.registry.component(node.attribute.component);
      if (node.attribute.repeatable && !hasRelation(node.where)) {
        return { [`${prefix}${node.field}`]: { $elemMatch: compileNode(w, component.attributes, node.where, '') } };
      }
      return compileNode(w, component.attributes, node.where, `${prefix}${node.field}.`);
    }
    case 'relation':
      return compileRelation(w, node.attribute, node.target, node.where, `${prefix}${node.field}`);
  }
}

/** `{ $nor: [f] }`, or `g` when `f` is itself `{ $nor: [g] }` (not-not: the same rows). */
function negate(filter: Filter): Filter {
  const inner = Object.keys(filter).length === 1 ? filter.$nor : undefined;
  return Array.isArray(inner) && inner.length === 1 ? (inner[0] as Filter) : { $nor: [filter] };
}

function hasRelation(node: FilterNode): boolean {
  if (node.type === 'relation') return true;
  if (node.type === 'and' || node.type === 'or') return node.children.some(hasRelation);
  if (node.type === 'not') return hasRelation(node.child);
  return node.type === 'component' ? hasRelation(node.where) : false;
}

/** `filters[categories][id][$null]=true`: "no related row" rather than "a related row without id". */
function isEmptinessTest(where: FilterNode): boolean {
  if (where.type !== 'scalar' || (where.field !== 'id' && where.field !== 'documentId')) return false;
  return (where.operator === '$null' && where.value !== false) || (where.operator === '$notNull' && where.value === false);
}

/**
 * The lookup of one relation filter. `path`: the stored relation value (dotted through components; MongoDB
 * compares every value along it, arrays expanded, against the foreign field). The mappedBy side joins the root's
 * `documentId` to the target's owning field (an array when to-many: any element matches).
 */
function compileRelation(w: Walk, attribute: RelationAttribute | MediaAttribute, targetUid: string, where: FilterNode, path: string): Filter {
  const target = w.ctx.registry.contentType(targetUid);
  const mappedBy = attribute.kind === 'relation' && !attribute.owner ? attribute.mappedBy : undefined;
  const scope = targetScope(w.ctx, target, w.source, mappedBy !== undefined, false);
  const temp = w.ctx.next(TEMP.relationFilter);
  const empty = isEmptinessTest(where);
  const pipeline: Stage[] = Object.keys(scope.match).length > 0 ? [{ $match: scope.match }] : [];
  if (!empty) {
    const inner = compileFilters(w.ctx, target, where, scope.rows);
    pipeline.push(...inner.lookups, { $match: inner.match });
  }
  pipeline.push({ $limit: 1 }, { $project: { _id: 1 } });
  const foreignField = mappedBy ?? (targetUid === UPLOAD_FILE_UID ? 'id' : 'documentId');
  const localField = mappedBy !== undefined ? 'documentId' : path;
  w.lookups.push({ $lookup: { from: target.collectionName, localField, foreignField, pipeline, as: temp } });
  w.temps.push(temp);
  const none = { [temp]: { $size: 0 } };
  return empty ? none : { $nor: [none] };
}
