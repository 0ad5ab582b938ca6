import type { PopulateMap, PopulateNode } from '../query/types';
import type { ComponentAttribute, ContentType, DynamicZoneAttribute, MediaAttribute, RelationAttribute } from '../schema/types';
import { UPLOAD_FILE_UID } from '../schema/types';
import type { CompileContext, SourceLocale, Stage } from './compile-context';
import { firstOrNull } from './expressions';
import { TEMP } from './reserved-fields';
import { relationJoin, type RelationJoin } from './relation-join';

/** Builds the `$lookup` of a relation into `as`, without relation order (compile-populate's relationLookup). */
export type TargetLookup = (join: RelationJoin, target: ContentType, node: PopulateNode, as: string) => Stage;

/** One step from the row down to an embedded value: the field, and whether it holds an array of items. */
interface Segment {
  readonly field: string;
  readonly array: boolean;
}

interface Walk {
  readonly ctx: CompileContext;
  readonly source: SourceLocale;
  readonly targetLookup: TargetLookup;
  readonly lookups: Stage[];
  readonly temps: string[];
}

/** `$seo` at the row, `$$c1.seo` inside an item variable. */
function at(item: string, field: string): string {
  return item === '$' ? `$${field}` : `${item}.${field}`;
}

/**
 * Populates a component or dynamic zone attribute. The value stays embedded; media and relations inside it are
 * fetched by ONE `$lookup` each into `__p<N>` (`localField` the dotted path of the attribute, e.g. `blocks.image`:
 * the keys of every item, at any depth), then a single
 * `$addFields` rebuilds the value with `$map`/`$mergeObjects`, putting each resolved row in place in stored
 * order. Dynamic zones keep only the components of `on` when given. Nothing to populate = no stage.
 */
export function compileEmbeddedPopulate(ctx: CompileContext, name: string, attribute: ComponentAttribute | DynamicZoneAttribute, node: PopulateNode, source: SourceLocale, targetLookup: TargetLookup): Stage[] {
  const w: Walk = { ctx, source, targetLookup, lookups: [], temps: [] };
  const expr = attribute.kind === 'component'
    ? componentValue(w, '$', attribute, node.populate, node.fields, [])
    : dynamicZoneValue(w, attribute, node, { field: name, array: true });
  if (expr === undefined) return [];
  const stages: Stage[] = [...w.lookups, { $addFields: { [name]: expr } }];
  if (w.temps.length > 0) stages.push({ $unset: w.temps });
  return stages;
}

function componentValue(w: Walk, item: string, attribute: ComponentAttribute, map: PopulateMap, fields: readonly string[] | null, path: readonly Segment[]): unknown {
  const segs = [...path, { field: attribute.name, array: attribute.repeatable }];
  const stored = at(item, attribute.name);
  if (!attribute.repeatable) return rebuild(w, stored, attribute.component, map, fields, segs);
  const v = w.ctx.next('c');
  const each = rebuild(w, `$$${v}`, attribute.component, map, fields, segs);
  return each === undefined ? undefined : { $map: { input: { $ifNull: [stored, []] }, as: v, in: each } };
}

function dynamicZoneValue(w: Walk, attribute: DynamicZoneAttribute, node: PopulateNode, seg: Segment): unknown {
  const on = node.on;
  let input: unknown = { $ifNull: [`$${seg.field}`, []] };
  if (on) {
    const d = w.ctx.next('d');
    input = { $filter: { input, as: d, cond: { $in: [`$$${d}.__component`, Object.keys(on)] } } };
  }
  const v = w.ctx.next('c');
  const branches: unknown[] = [];
  for (const uid of attribute.components) {
    if (on && !on[uid]) continue;
    const sub = on ? on[uid]! : node;
    const each = rebuild(w, `$$${v}`, uid, sub.populate, sub.fields, [seg]);
    if (each !== undefined) branches.push({ case: { $eq: [`$$${v}.__component`, uid] }, then: each });
  }
  if (branches.length === 0) return on ? input : undefined;
  return { $map: { input, as: v, in: { $switch: { branches, default: `$$${v}` } } } };
}

/** The item at `item` with its populated attributes replaced (and reduced to `fields`), null when absent. */
function rebuild(w: Walk, item: string, uid: string, map: PopulateMap, fields: readonly string[] | null, segs: readonly Segment[]): unknown {
  const component = w.ctx.registry.component(uid);
  const sets: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(map)) {
    const attribute = component.attributes[name];
    if (attribute?.kind === 'relation' || attribute?.kind === 'media') sets[name] = resolved(w, item, attribute, sub, segs);
    else if (attribute?.kind === 'component') {
      const value = componentValue(w, item, attribute, sub.populate, sub.fields, segs);
      if (value !== undefined) sets[name] = value;
    }
  }
  if (Object.keys(sets).length === 0 && fields === null) return undefined;
  const base: unknown = fields === null ? item : Object.fromEntries(['id', '__component', ...fields].map((f) => [f, at(item, f)]));
  return { $cond: [{ $eq: [{ $type: item }, 'object'] }, { $mergeObjects: [base, sets] }, null] };
}

/** One lookup for the attribute across all items, and the expression putting the right rows in this item. */
function resolved(w: Walk, item: string, attribute: RelationAttribute | MediaAttribute, node: PopulateNode, segs: readonly Segment[]): unknown {
  const multi = attribute.kind === 'media' ? attribute.multiple : attribute.toMany;
  // A dotted localField crosses the arrays on its path (repeatable components, dynamic zones) and expands the
  // stored array at its end: every key of every item, as the server's visitAllValuesAtPath collects them
  // (equality-lookup's localValues); no key at all joins nothing (the manual's null, which no target holds).
  const localField = [...segs.map((s) => s.field), attribute.name].join('.');
  const join = relationJoin(w.ctx, attribute, w.source, localField, true);
  const target = w.ctx.registry.contentType(attribute.kind === 'media' ? UPLOAD_FILE_UID : attribute.target);
  const temp = w.ctx.next(TEMP.populate);
  w.lookups.push(w.targetLookup(join, target, node, temp));
  w.temps.push(temp);
  const key = attribute.kind === 'media' ? 'id' : 'documentId';
  const stored = at(item, attribute.name);
  const r = w.ctx.next('r');
  const match = (value: string): unknown => ({ $filter: { input: `$${temp}`, as: r, cond: { $eq: [`$$${r}.${key}`, value] } } });
  if (!multi) return firstOrNull(match(stored));
  if (node.sort.length > 0) return { $filter: { input: `$${temp}`, as: r, cond: { $in: [`$$${r}.${key}`, { $ifNull: [stored, []] }] } } };
  const i = w.ctx.next('i');
  const x = w.ctx.next('x');
  const rows = { $map: { input: { $ifNull: [stored, []] }, as: i, in: firstOrNull(match(`$$${i}`)) } };
  return { $filter: { input: rows, as: x, cond: { $eq: [{ $type: `$$${x}` }, 'object'] } } };
}
