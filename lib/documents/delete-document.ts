import type { WriteContext } from './write-documents';
import { runHook } from './lifecycle-hooks';
import { syncInverseSides } from './relations/inverse-list';
import { withInverseOrder } from './relations/inverse-order';
import { removeDocumentReferences } from './relations/remove-references';
import { uniqueViolation } from './unique-violation';

/**
 * Deletes the given locale of a document (both statuses); when no locale of it remains, removes it from every
 * relation that points to it. Deleting an unknown document is not an error (Strapi answers 204).
 */
export async function deleteDocument(ctx: WriteContext, documentId: string, locale: string | null | '*'): Promise<number> {
  const { ct, engine, registry } = ctx;
  await runHook(ctx.hooks, 'beforeDelete', { uid: ct.uid, documentId, locale: locale === '*' ? null : locale });
  return engine.transaction(async () => {
    const scope = ct.localized && locale !== '*' ? { documentId, locale } : { documentId };
    await announceRows(ctx, 'entry.delete', scope);
    const removed = await engine.deleteMany(ct.collectionName, scope);
    if (removed > 0 && (await engine.count(ct.collectionName, { documentId })) === 0) {
      await removeDocumentReferences(engine, registry, ct.uid, documentId);
    }
    await runHook(ctx.hooks, 'afterDelete', { uid: ct.uid, documentId, locale: locale === '*' ? null : locale });
    return removed;
  });
}

/** Removes the published row (the draft stays). */
export async function unpublishDocument(ctx: WriteContext, documentId: string, locale: string | null): Promise<number> {
  const { ct, engine } = ctx;
  const scope = { documentId, ...(ct.localized ? { locale } : {}), _status: 'published' };
  return engine.transaction(async () => {
    await announceRows(ctx, 'entry.unpublish', scope);
    return engine.deleteMany(ct.collectionName, scope);
  });
}

/** Announces the rows about to be deleted (one event per version and locale, by row id as Strapi lists them). */
async function announceRows(ctx: WriteContext, event: 'entry.delete' | 'entry.unpublish', scope: Record<string, unknown>): Promise<void> {
  if (!ctx.events) return;
  for (const row of await ctx.engine.find(ctx.ct.collectionName, scope, { sort: { id: 1 } })) ctx.events.record(event, ctx.ct.uid, row);
}

/** Replaces the draft by a copy of the published row. */
export async function discardDraft(ctx: WriteContext, documentId: string, locale: string | null): Promise<boolean> {
  const { ct, engine } = ctx;
  let published: Record<string, unknown> | undefined;
  // The published values may clash with another document's draft: the unique index answers it as a 400.
  return engine.transaction(async () => {
    [published] = await engine.find(ct.collectionName, { documentId, ...(ct.localized ? { locale } : {}), _status: 'published' });
    if (!published) return false;
    const { _id, ...rest } = published;
    void _id;
    const drafts = { documentId, ...(ct.localized ? { locale } : {}), _status: 'draft' };
    // The new draft keeps the places the discarded one had on the other sides of its relations.
    const [discarded] = await engine.find(ct.collectionName, drafts, { limit: 1 });
    await engine.deleteMany(ct.collectionName, drafts);
    const fresh = { ...rest, id: await engine.nextId(ct.collectionName), _status: 'draft', publishedAt: null };
    const draft = await withInverseOrder(engine, ctx.registry, ct, discarded ?? null, fresh);
    await engine.insertMany(ct.collectionName, [draft]);
    await syncInverseSides(engine, ctx.registry, ct, documentId, ct.localized ? locale : null, 'published', 'draft');
    ctx.events?.record('entry.draft-discard', ct.uid, draft);
    return true;
  }).catch((error: unknown) => {
    throw uniqueViolation(ct, error, published);
  });
}
