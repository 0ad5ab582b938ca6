import { PERMISSION_UID, ROLE_UID } from '../permission-type';
import { addProblem, increment, ownerKey, type GrantLink, type ImportPlan } from './import-plan';

const isId = (v: unknown): v is number => Number.isSafeInteger(v);

/** The ends of a link line (plan-link's `StrapiLink`), as far as a grant reads them. */
interface GrantLine {
  readonly left: { type: string; ref: unknown; field: string };
  readonly right: { type: string; ref: unknown; pos?: number | null };
}

/**
 * A permission entity of the export (`{ documentId, action, ...timestamps }`, strapi/strapi
 * packages/plugins/users-permissions/server/content-types/permission): its action, by source id. Its
 * documentId and timestamps are not kept: the role's `permissions` list holds actions only.
 */
export function planPermission(plan: ImportPlan, id: number, data: Record<string, unknown>): void {
  if (plan.permissions.has(id)) return addProblem(plan, `entity ${PERMISSION_UID} id ${id}: the id appears twice`);
  if (typeof data.action !== 'string' || data.action === '') {
    plan.failed.add(ownerKey(PERMISSION_UID, id));
    return addProblem(plan, `${PERMISSION_UID} id ${id}, field action: expected an action string, got ${JSON.stringify(data.action)}`);
  }
  plan.permissions.set(id, data.action);
}

/** A link line whose owner is a permission: its `role` (the only relation Strapi's permission type stores). */
export function planGrant(plan: ImportPlan, link: GrantLine, seq: number): void {
  const { left, right } = link;
  const where = `link ${left.type} id ${left.ref} field ${left.field}`;
  if (left.field !== 'role') return addProblem(plan, `${where}: a permission's only relation is role`);
  if (right.type !== ROLE_UID) return addProblem(plan, `${where}: wrong target ${right.type}, a permission's role is a ${ROLE_UID}`);
  if (!isId(left.ref) || !isId(right.ref)) return addProblem(plan, `${where}: refs must be integer ids`);
  plan.grantLinks.push({ permission: left.ref, role: right.ref, pos: typeof right.pos === 'number' ? right.pos : null, seq });
}

/** On the role's side: Strapi's position (the role's permissions order), then the export's order. */
const byRolePosition = (a: GrantLink, b: GrantLink): number => a.role - b.role || (a.pos ?? Infinity) - (b.pos ?? Infinity) || a.seq - b.seq;

/**
 * The checks of the grants that need the whole export (both ends of each link there, one role per permission),
 * then each role's `permissions` list in the role's order. Actions are kept as they are, those this API does not
 * have included (they grant nothing here, and go back to Strapi with the role). A permission linked to no role
 * grants nothing in Strapi either: it is counted in `skipped`.
 */
export function checkGrants(plan: ImportPlan): void {
  const roleOf = new Map<number, GrantLink>();
  const roles = plan.rows.get(ROLE_UID);
  for (const link of plan.grantLinks) {
    const where = `link ${PERMISSION_UID} id ${link.permission} field role`;
    if (plan.failed.has(ownerKey(PERMISSION_UID, link.permission)) || plan.failed.has(ownerKey(ROLE_UID, link.role))) continue;
    if (!plan.permissions.has(link.permission)) addProblem(plan, `${where}: there is no such entity in the export`);
    else if (!roles?.has(link.role)) addProblem(plan, `${where}: links to ${ROLE_UID} id ${link.role}, which is not in the export`);
    else if (roleOf.has(link.permission)) addProblem(plan, `${PERMISSION_UID} id ${link.permission}, field role: 2 links to a to-one field`);
    else roleOf.set(link.permission, link);
  }
  const orphans = [...plan.permissions.keys()].filter((id) => !roleOf.has(id)).length;
  if (orphans > 0) increment(plan.skipped, `${PERMISSION_UID} of no role (they grant nothing)`, orphans);
  for (const link of [...roleOf.values()].sort(byRolePosition)) {
    const list = plan.roleGrants.get(link.role) ?? [];
    plan.roleGrants.set(link.role, list);
    list.push(plan.permissions.get(link.permission)!);
  }
}
