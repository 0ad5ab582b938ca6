import type { Engine, Row } from '../../engine';
import type { Registry } from '../../schema';
import { movesUsers, ROLE_UID } from '../permission-type';
import type { ImportPlan } from './import-plan';

/** Stored rows an import removed, put back if it is rolled back. */
export interface ReplacedRows {
  readonly collection: string;
  readonly rows: readonly Row[];
}

/**
 * Makes room for the roles of an export: the stored roles of the same `type`s (Public and Authenticated, which a
 * router with `auth.users` seeds at start-up, and any other of those types) are removed, as Strapi's import
 * deletes them before writing the export's. They are recorded (`record`: in the import's marker) before they go,
 * so that a rollback puts them back. Roles of other types stay. The import's check has made sure that no user and no content row exists.
 */
export async function replaceRoles(engine: Engine, registry: Registry, plan: ImportPlan, record: (replaced: ReplacedRows) => Promise<void>): Promise<void> {
  if (!movesUsers(registry) || plan.roleTypes.size === 0) return;
  const collection = registry.contentType(ROLE_UID).collectionName;
  const filter = { type: { $in: [...plan.roleTypes] } };
  const rows = await engine.find(collection, filter);
  if (rows.length === 0) return;
  await record({ collection, rows });
  await engine.deleteMany(collection, filter);
}
