import type { Engine } from '../../engine';
import type { Registry } from '../../schema';
import type { ImportPlan } from './import-plan';

/** The ids handed out to an import: by type (or component uid), source id -> stored id. */
export type IdMap = Map<string, Map<number, number>>;

/** A block of ids taken from one counter: the rows written with them are what an undo deletes. */
export interface IdRange {
  readonly collection: string;
  readonly first: number;
  readonly last: number;
  /** false for component ids (embedded in rows: nothing to delete). */
  readonly rows: boolean;
}

/** Stored ids in the order of the source ids, so that the default order (by id) and id-ordered sides stay. */
async function block(engine: Engine, collection: string, sourceIds: Iterable<number>, rows: boolean, ranges: IdRange[]): Promise<Map<number, number>> {
  const sorted = [...sourceIds].sort((a, b) => a - b);
  const map = new Map<number, number>();
  if (sorted.length === 0) return map;
  const first = await engine.nextId(collection, sorted.length);
  ranges.push({ collection, first, last: first + sorted.length - 1, rows });
  sorted.forEach((id, i) => map.set(id, first + i));
  return map;
}

/**
 * Takes one block of ids per collection (rows) and per component collection (component ids) from the engine's
 * counters, outside any transaction as every write does (docs/storage-model.md): `ranges` says what was taken.
 */
export async function allocateIds(engine: Engine, registry: Registry, plan: ImportPlan, ranges: IdRange[]): Promise<{ rows: IdMap; components: IdMap }> {
  const rows: IdMap = new Map();
  const components: IdMap = new Map();
  for (const [uid, sources] of plan.rows) rows.set(uid, await block(engine, registry.contentType(uid).collectionName, sources.keys(), true, ranges));
  for (const [uid, ids] of plan.components) components.set(uid, await block(engine, registry.component(uid).collectionName, ids, false, ranges));
  return { rows, components };
}
