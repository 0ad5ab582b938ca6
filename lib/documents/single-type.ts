import { SingleTypeTaken } from './single-type-claim';
import { createDocument, updateDocument, type WriteContext, type WriteOptions } from './write-documents';

/** How many times a single-type write runs again after losing a race (another writer created the document). */
const ATTEMPTS = 3;

/**
 * `PUT /api/<singularName>`: updates the single type's document in the given locale (creating that localization),
 * or creates the document. The database decides which writer creates it (`claimSingleType`); a loser runs
 * again as an update of the winner's document, so any number of app instances end with one document.
 * Returns the documentId.
 *
 * @example
 * const documentId = await writeSingleType(ctx, { siteName: 'Blog' }, { status: 'published', locale: 'en' });
 */
export async function writeSingleType(ctx: WriteContext, rawData: unknown, options: WriteOptions): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const documentId = await singleDocumentId(ctx);
      if (documentId !== undefined && (await updateDocument(ctx, documentId, rawData, options))) return documentId;
      return await createDocument(ctx, rawData, options);
    } catch (error) {
      if (!(error instanceof SingleTypeTaken) || attempt >= ATTEMPTS) throw error;
    }
  }
}

/** The documentId of the single type's document (any locale and status), if it has one. */
export async function singleDocumentId(ctx: WriteContext): Promise<string | undefined> {
  const [row] = await ctx.engine.find(ctx.ct.collectionName, {}, { limit: 1, projection: { documentId: 1 } });
  return row?.documentId as string | undefined;
}
