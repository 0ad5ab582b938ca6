import type { CreateIndexesOptions, Document } from 'mongodb';
import type { IndexSpec } from '../types';
import { createIndexOptions } from './create-index-options';

/** The part of a driver `Db` that {@link ensureIndex} uses (a fake one in unit tests). */
export interface IndexingDb {
  collection(name: string): {
    createIndex(keys: Record<string, 1 | -1>, options: CreateIndexesOptions): Promise<string>;
    dropIndex(name: string): Promise<unknown>;
    listIndexes(): { toArray(): Promise<Document[]> };
  };
}

/** IndexOptionsConflict and IndexKeySpecsConflict (https://www.mongodb.com/docs/manual/reference/error-codes/). */
const CONFLICTS = new Set([85, 86]);
/** IndexNotFound: another app instance dropped it first. */
const INDEX_NOT_FOUND = 27;

/**
 * Creates the index `spec` on `collection`, or leaves it when it exists as specified. The names are fixed, so
 * an index whose definition changed between two versions of the library (other keys, `unique` added or
 * removed) exists under its name with another definition, and `createIndex` fails with IndexKeySpecsConflict
 * (86) or, for the same keys under another name or with other options, IndexOptionsConflict (85)
 * (https://www.mongodb.com/docs/manual/reference/method/db.collection.createIndex/). MongoDB cannot modify an
 * index: "To modify an existing index, you need to drop and recreate the index"
 * (https://www.mongodb.com/docs/manual/core/indexes/manage-indexes/, "Modify an Index"). So the index holding
 * the name or the keys is dropped (reported through `log`) and created again, with the options of {@link createIndexOptions}.
 *
 * @example
 * await ensureIndex(db, 'articles', { name: 'id', keys: { id: 1 }, unique: true });
 */
export async function ensureIndex(db: IndexingDb, collection: string, spec: IndexSpec, log: (message: string) => void): Promise<void> {
  const target = db.collection(collection);
  const options = createIndexOptions(spec);
  try {
    await target.createIndex(spec.keys, options);
    return;
  } catch (error) {
    if (!CONFLICTS.has(codeOf(error) ?? 0)) throw error;
  }
  const stale = (await target.listIndexes().toArray()).filter(
    (index) => index.name !== '_id_' && (index.name === spec.name || sameKeys(index.key, spec.keys)),
  );
  for (const index of stale) {
    log(
      `content-router: index ${collection}.${String(index.name)} ${JSON.stringify(index.key)}${index.unique ? ' unique' : ''} ` +
        `is replaced by ${spec.name} ${JSON.stringify(spec.keys)}${spec.unique ? ' unique' : ''} (dropped and recreated)`,
    );
    await target.dropIndex(String(index.name)).catch((error: unknown) => {
      if (codeOf(error) !== INDEX_NOT_FOUND) throw error;
    });
  }
  await target.createIndex(spec.keys, options);
}

/** Same fields in the same order with the same directions (an index key pattern is ordered). */
function sameKeys(existing: unknown, keys: Record<string, 1 | -1>): boolean {
  if (existing === null || typeof existing !== 'object') return false;
  const a = Object.entries(existing as Record<string, unknown>);
  const b = Object.entries(keys);
  return a.length === b.length && a.every(([field, direction], i) => field === b[i]![0] && Number(direction) === b[i]![1]);
}

function codeOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}
