import { UPLOAD_FILE_UID, type Attributes, type Registry } from '../../schema';
import { movesUsers, PERMISSION_UID } from '../permission-type';
import { addProblem, increment, ownerKey, type ImportPlan, type OwnedLink } from './import-plan';
import { planGrant } from './plan-grants';
import { planFileFolder } from './plan-folders';

/** A link line of the export (strapi/strapi packages/core/data-transfer/src/strapi/queries/link.ts). */
export interface StrapiLink {
  kind: string;
  relation?: string;
  left: { type: string; ref: number | string; field: string; pos?: number | null };
  right: { type: string; ref: number | string; field?: string | null; pos?: number | null };
}

/** Strapi's own types (plugins, admin): outside the model they are kept aside, not refused. */
export const isStrapiSystemType = (uid: string): boolean => /^(plugin|admin|strapi)::/.test(uid);

function attributesOf(registry: Registry, uid: string): Attributes | undefined {
  return registry.contentTypes.get(uid)?.attributes ?? registry.components.get(uid)?.attributes;
}

/** An attribute by name: own names only (a link's field `constructor` is no attribute). */
const attributeOf = (attributes: Attributes, name: string) => (Object.hasOwn(attributes, name) ? attributes[name] : undefined);

const isLink = (v: unknown): v is StrapiLink => {
  const l = v as StrapiLink | null;
  return typeof l?.kind === 'string' && typeof l.left?.type === 'string' && typeof l.right?.type === 'string' && typeof l.left.field === 'string';
};

function own(plan: ImportPlan, owner: string, ref: number, link: OwnedLink): void {
  const key = ownerKey(owner, ref);
  let fields = plan.links.get(key);
  if (!fields) plan.links.set(key, (fields = new Map()));
  const list = fields.get(link.field);
  if (list) list.push(link);
  else fields.set(link.field, [link]);
}

/**
 * Files one link line of the export: a relation under its owning row (or component), a media morph under the
 * row or component holding the media field, a link between two of Strapi's own types kept aside (`'keep'`),
 * the links we do not store skipped by reason, and anything that does not fit the model as a problem naming it.
 */
export function planLink(plan: ImportPlan, registry: Registry, value: unknown, seq: number): 'keep' | void {
  if (!isLink(value)) return addProblem(plan, `links line ${seq}: not a Strapi link`);
  const { left, right } = value;
  const where = `link ${left.type} id ${left.ref} field ${left.field}`;
  if (left.field === 'localizations') return increment(plan.skipped, 'localizations (Strapi derives them from documentId)');
  if (left.type === PERMISSION_UID && movesUsers(registry)) return planGrant(plan, value, seq);
  if (value.kind === 'relation.morph' && left.type === UPLOAD_FILE_UID && left.field === 'related') {
    const attributes = attributesOf(registry, right.type);
    if (!attributes) {
      if (isStrapiSystemType(right.type)) return increment(plan.skipped, `media of ${right.type} (not in the model)`);
      return addProblem(plan, `${where}: ${right.type} is not a type or component of the model`);
    }
    const field = right.field ?? '';
    if (attributeOf(attributes, field)?.kind !== 'media') return addProblem(plan, `${where}: ${right.type} has no media field ${JSON.stringify(field)}`);
    if (!Number.isSafeInteger(left.ref) || !Number.isSafeInteger(right.ref)) return addProblem(plan, `${where}: refs must be integer ids`);
    return own(plan, right.type, right.ref as number, { field, type: UPLOAD_FILE_UID, ref: left.ref as number, pos: right.pos ?? null, seq });
  }
  const attributes = attributesOf(registry, left.type);
  if (!attributes) {
    if (!isStrapiSystemType(left.type)) return addProblem(plan, `${where}: ${left.type} is not a type of the model`);
    if (attributesOf(registry, right.type)) return increment(plan.skipped, `${left.type}.${left.field} (to a type of the model)`);
    return 'keep';
  }
  if (left.type === UPLOAD_FILE_UID && left.field === 'folder') return planFileFolder(plan, value);
  const attribute = attributeOf(attributes, left.field);
  if (!attribute && isStrapiSystemType(right.type) && !attributesOf(registry, right.type)) {
    return increment(plan.skipped, `${left.field} (to ${right.type}, not in the model)`);
  }
  if (attribute?.kind !== 'relation' || !attribute.owner) {
    return addProblem(plan, `${where}: the model has no relation ${left.field} stored on ${left.type}${attribute?.kind === 'relation' ? ' (it is the mappedBy side)' : ''}`);
  }
  if (attribute.target !== right.type) return addProblem(plan, `${where}: wrong target ${right.type}, the model's ${left.field} targets ${attribute.target}`);
  if (!registry.contentTypes.has(attribute.target)) return increment(plan.skipped, `relations to ${attribute.target} (not transferred)`);
  if (!Number.isSafeInteger(left.ref) || !Number.isSafeInteger(right.ref)) return addProblem(plan, `${where}: refs must be integer ids`);
  const inversePos = typeof right.pos === 'number' && Number.isFinite(right.pos) ? right.pos : null;
  own(plan, left.type, left.ref as number, { field: left.field, type: right.type, ref: right.ref as number, pos: left.pos ?? null, inversePos, seq });
}

/** A link between two of Strapi's own types outside the model: kept aside for a later export. */
export function isKeptLink(registry: Registry, value: unknown): boolean {
  if (!isLink(value) || value.left.field === 'localizations') return false;
  const outside = (uid: string) => isStrapiSystemType(uid) && !attributesOf(registry, uid);
  return outside(value.left.type) && outside(value.right.type);
}
