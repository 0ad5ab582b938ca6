import type { Filter } from '../engine/types';
import type { FilterNode } from '../query/types';
import type { Attributes, ContentType, MediaAttribute, RelationAttribute } from '../schema/types';
import { UPLOAD_FILE_UID } from '../schema/types';
import type { CompileContext, SourceLocale, Stage } from './compile-context';
import { compileScalarFilter } from './compile-scalar-filter';
import { flattenOnce } from './expressions';
import { targetScope } from './target-scope';

/** A compiled filter tree: uncorrelated `$lookup`s to run first, the `$match` that uses them, their temp fields. */
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
 * (dotted paths, `$elemMatch` for repeatable components); every relation/media filter becomes ONE uncorrelated
 * `$lookup` into `__rf<N>` listing the keys of the matching target rows (nested relation filters nest the same
 * way inside it) and an `$expr` membership test in the `$match`.
 *
 * @example
 * compileFilters(ctx, article, { type: 'scalar', field: 'views', attribute, operator: '$gt', value: 10 }, source)
 * // { lookups: [], match: { views: { $gt: 10 } }, temps: [] }
 */
export function compileFilters(ctx: CompileContext, owner: ContentType, node: FilterNode, source: SourceLocale): CompiledFilter {
  const walk: Walk = { ctx, source, lookups: [], temps: [] };
  const match = compileNode(walk, owner.attributes, node, '', false);
  return { lookups: walk.lookups, match, temps: walk.temps };
}

function compileNode(w: Walk, attrs: Attributes, node: FilterNode, prefix: string, crossed: boolean): Filter {
  switch (node.type) {
    case 'and':
    case 'or': {
      const parts = node.children.map((c) => compileNode(w, attrs, c, prefix, crossed));
      if (node.type === 'and' && parts.length === 1) return parts[0]!;
      return parts.length === 0 ? {} : { [`$${node.type}`]: parts };
    }
    case 'not':
      return { $nor: [compileNode(w, attrs, node.child, prefix, crossed)] };
    case 'scalar':
      return compileScalarFilter(`${prefix}${node.field}`, node.attribute, node.operator, node.value);
    case 'component': {
      const component = w.ctx.registry.component(node.attribute.component);
      if (node.attribute.repeatable && !hasRelation(node.where)) {
        return { [`${prefix}${node.field}`]: { $elemMatch: compileNode(w, component.attributes, node.where, '', false) } };
      }
      return compileNode(w, component.attributes, node.where, `${prefix}${node.field}.`, crossed || node.attribute.repeatable);
    }
    case 'relation':
      return compileRelation(w, node.attribute, node.target, node.where, `$${prefix}${node.field}`, crossed);
  }
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

function compileRelation(w: Walk, attribute: RelationAttribute | MediaAttribute, targetUid: string, where: FilterNode, fieldExpr: string, crossed: boolean): Filter {
  const target = w.ctx.registry.contentType(targetUid);
  const mappedBy = attribute.kind === 'relation' && !attribute.owner ? attribute.mappedBy : undefined;
  const scope = targetScope(w.ctx, target, w.source, mappedBy !== undefined, false);
  const temp = w.ctx.next('__rf');
  const empty = isEmptinessTest(where);
  const pipeline: Stage[] = Object.keys(scope.match).length > 0 ? [{ $match: scope.match }] : [];
  if (!empty) {
    const inner = compileFilters(w.ctx, target, where, scope.rows);
    pipeline.push(...inner.lookups, { $match: inner.match });
  }
  const isMedia = targetUid === UPLOAD_FILE_UID;
  const key = mappedBy ?? (isMedia ? 'id' : 'documentId');
  const ownerAttr = mappedBy !== undefined ? target.attributes[mappedBy] : undefined;
  if (ownerAttr?.kind === 'relation' && ownerAttr.toMany) pipeline.push({ $unwind: `$${key}` });
  pipeline.push({ $project: { _id: 0, [key]: 1 } });
  w.lookups.push({ $lookup: { from: target.collectionName, pipeline, as: temp } });
  w.temps.push(temp);
  const keys = `$${temp}.${key}`;
  const multi = attribute.kind === 'relation' ? attribute.toMany : attribute.multiple;
  let test: Record<string, unknown>;
  if (mappedBy !== undefined) test = { $in: ['$documentId', keys] };
  else if (!multi && !crossed) test = { $in: [fieldExpr, keys] };
  else {
    const values = crossed ? flattenOnce(fieldExpr) : { $ifNull: [fieldExpr, []] };
    test = { $gt: [{ $size: { $setIntersection: [values, keys] } }, 0] };
  }
  return empty ? { $nor: [{ $expr: test }] } : { $expr: test };
}
