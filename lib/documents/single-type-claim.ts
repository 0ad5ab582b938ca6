import { DuplicateKeyError, type Engine } from '../engine';
import { SINGLE_TYPES_COLLECTION } from '../engine/indexes';
import { ValidationError } from '../errors';
import type { ContentType } from '../schema';

/** A new document of a single type that already has one (found by the claim, or by losing the claim's race). */
export class SingleTypeTaken extends ValidationError {
  constructor(uid: string, documentId?: string) {
    super(`${uid} is a single type and already has a document${documentId ? ` (${documentId})` : ''}: update it instead`);
  }
}

/**
 * The error a creating write of a single type ends with when it lost the claim to a concurrent one: MongoDB
 * may answer the second insert of the claim row with a duplicate key (the first committed meanwhile) rather than
 * a write conflict. Any other error is returned as is.
 *
 * @example
 * catch (error) { throw claimConflict(ct, error) }
 */
export function claimConflict(ct: ContentType, error: unknown): unknown {
  return error instanceof DuplicateKeyError && error.collection === SINGLE_TYPES_COLLECTION ? new SingleTypeTaken(ct.uid) : error;
}


/**
 * Called inside the transaction that creates a new document of a single type: makes sure no other document
 * exists and writes the type's claim (`{ _id: uid, documentId }` in `_single_types`). Two concurrent first
 * writes both write that one claim document, so the database lets only one commit: on MongoDB the other gets a
 * write conflict, is retried (engine) and then finds the winner's rows (https://www.mongodb.com/docs/manual/core/transactions-production-consideration/,
 * "In-progress Transactions and Write Conflicts"); on the memory engine writes are serialized. A claim left by
 * a document deleted since is simply overwritten.
 *
 * @example
 * await claimSingleType(engine, ct, docId); // throws SingleTypeTaken when the type already has a document
 */
export async function claimSingleType(engine: Engine, ct: ContentType, documentId: string): Promise<void> {
  const [existing] = await engine.find(ct.collectionName, {}, { limit: 1, projection: { documentId: 1 } });
  if (existing) throw new SingleTypeTaken(ct.uid, existing.documentId as string);
  const claim = { _id: ct.uid, documentId };
  if ((await engine.updateMany(SINGLE_TYPES_COLLECTION, { _id: ct.uid }, { $set: { documentId } })) === 0) {
    await engine.insertMany(SINGLE_TYPES_COLLECTION, [claim]);
  }
}
