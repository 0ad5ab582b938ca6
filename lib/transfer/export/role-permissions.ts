import { createHash } from 'node:crypto';
import type { Engine, Row } from '../../engine';
import type { Registry } from '../../schema';
import { PERMISSION_UID, ROLE_UID } from '../permission-type';
import { readRows } from './read-rows';

interface Grant {
  /** The permission's id in the export: 1, 2, ... in the order of the roles' ids, then of each role's list. */
  readonly id: number;
  readonly role: Row;
  readonly action: string;
  /** Its position in the role's list, from 1 (Strapi's order column on the role's side). */
  readonly pos: number;
}

/** Every action of every stored role, in role-id order: the same ids on both passes over the rows. */
async function* grants(engine: Engine, registry: Registry): AsyncGenerator<Grant> {
  let id = 0;
  for await (const role of readRows(engine, registry.contentType(ROLE_UID).collectionName)) {
    const actions = Array.isArray(role.permissions) ? role.permissions.filter((a): a is string => typeof a === 'string') : [];
    for (const [i, action] of actions.entries()) yield { id: ++id, role, action, pos: i + 1 };
  }
}

/**
 * A permission's documentId, derived from its role's and its place there: the same store exports the same
 * lines twice. 24 lowercase letters and digits like Strapi's own (any string imports).
 */
function permissionDocumentId(grant: Grant): string {
  const hash = createHash('sha256').update(`${String(grant.role.documentId)}\u0000${grant.pos}\u0000${grant.action}`).digest('hex');
  return `p${BigInt(`0x${hash}`).toString(36).slice(0, 23)}`;
}

/**
 * The lines Strapi's export writes for the grants of the roles (strapi/strapi packages/plugins/users-permissions
 * server/content-types/permission: a row per action, `role` a manyToOne with `inversedBy: 'permissions'`):
 * `entities`, a permission entity per action of each stored role's `permissions` list (the role's timestamps);
 * `links`, its `role` link (its position in the role's list on the role's side) and its `localizations` link,
 * as Strapi writes one for every row. `strapi import` of them gives each role its grants back.
 *
 * @example
 * for await (const line of permissionLines(engine, registry, 'entities')) await writer.write(line);
 */
export async function* permissionLines(engine: Engine, registry: Registry, stage: 'entities' | 'links'): AsyncGenerator<Record<string, unknown>> {
  for await (const grant of grants(engine, registry)) {
    const { id, role, action, pos } = grant;
    const documentId = permissionDocumentId(grant);
    if (stage === 'entities') {
      const data = { documentId, action, createdAt: role.createdAt, updatedAt: role.updatedAt, publishedAt: role.publishedAt ?? role.createdAt, locale: null };
      yield { type: PERMISSION_UID, id, data };
      continue;
    }
    yield { kind: 'relation.basic', relation: 'manyToOne', left: { type: PERMISSION_UID, field: 'role', ref: id }, right: { type: ROLE_UID, field: 'permissions', ref: role.id, pos } };
    yield { kind: 'relation.circular', relation: 'oneToMany', left: { type: PERMISSION_UID, ref: id, field: 'localizations' }, right: { type: PERMISSION_UID, ref: documentId } };
  }
}
