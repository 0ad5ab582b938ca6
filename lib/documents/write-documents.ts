import type { Engine } from '../engine';
import type { ContentType, Registry } from '../schema';
import type { BodyValidator } from '../schema/validate-body';
import type { DocumentEvents, LifecycleHooks } from './lifecycle-hooks';
import { runHook } from './lifecycle-hooks';
import { reidComponents } from './prepare-components';
import { dropForbiddenRelations } from './relations/drop-forbidden-relations';
import { syncInverseSides } from './relations/inverse-list';
import { withInverseOrder } from './relations/inverse-order';
import { releaseExclusiveTargets, writeInverseRelation } from './relations/resolve-relations';
import { claimConflict, claimSingleType } from './single-type-claim';
import { checkUnique, emptyAttributes, sharedAttributeNames, toStoredAttributes, type InverseWrites } from './store-row';
import { isDocumentClash, uniqueViolation } from './unique-violation';

type Row = Record<string, unknown>;

export interface WriteContext {
  registry: Registry;
  engine: Engine;
  ct: ContentType;
  validator: BodyValidator;
  clock: () => Date;
  newDocumentId: () => string;
  hooks: LifecycleHooks;
  /** Where writes are announced as Strapi's events (webhooks, `router.on`), inside their transaction. */
  events?: DocumentEvents;
  /**
   * Whether the caller may `find` a type (its ability; absent: every type, as the Document Service). Relations and
   * media of the body to types it cannot find are dropped, as Strapi's input sanitizer drops them.
   */
  canFind?: (uid: string) => boolean;
}

/** The validated body without the relations the caller may not make (see WriteContext.canFind). */
function allowedData(ctx: WriteContext, data: Row): Row {
  return ctx.canFind ? dropForbiddenRelations(ctx.registry, ctx.ct.attributes, data, ctx.canFind) : data;
}

export interface WriteOptions {
  /** 'draft' writes only the draft; 'published' (default) writes and publishes. */
  status: 'draft' | 'published';
  /** The locale written (localized types); ignored otherwise. */
  locale: string | null;
}

const now = (ctx: WriteContext): string => ctx.clock().toISOString();

/** Rows of one document in one locale. */
async function localeRows(ctx: WriteContext, documentId: string, locale: string | null): Promise<Row[]> {
  return ctx.engine.find(ctx.ct.collectionName, { documentId, ...(ctx.ct.localized ? { locale } : {}) }, { sort: { id: 1 } });
}

/**
 * Creates a document (or, with `documentId`, a new localization of an existing one). Returns the documentId.
 * A new document of a single type claims the type in the same transaction (`claimSingleType`).
 */
export async function createDocument(ctx: WriteContext, rawData: unknown, options: WriteOptions, documentId?: string): Promise<string> {
  const { ct, engine } = ctx;
  const draft = ct.draftAndPublish && options.status === 'draft';
  let data = allowedData(ctx, ctx.validator.validate(rawData, { action: 'create', draft }));
  data = await runHook(ctx.hooks, 'beforeCreate', { uid: ct.uid, data, locale: options.locale });
  let attrs: Row | undefined;
  try {
    return await engine.transaction(async () => {
      const docId = documentId ?? ctx.newDocumentId();
      if (documentId === undefined && ct.kind === 'singleType') await claimSingleType(engine, ct, docId);
      const locale = ct.localized ? options.locale : null;
      const { values, inverse } = await toStoredAttributes(engine, ctx.registry, ct, data, null);
      // A new localization keeps the shared (non-localized) values unless the body sets them explicitly.
      const shared = documentId ? await sharedValues(ctx, docId, explicitKeys(rawData)) : {};
      attrs = { ...emptyAttributes(ct), ...values, ...shared };
      const status = ct.draftAndPublish ? 'draft' : 'published';
      await checkUnique(engine, ct, attrs, { documentId: docId, locale, status });
      const at = now(ctx);
      const base: Row = { documentId: docId, locale, createdAt: at, updatedAt: at, ...attrs };
      const row = await withInverseOrder(engine, ctx.registry, ct, null, {
        id: await engine.nextId(ct.collectionName),
        ...base,
        _status: status,
        publishedAt: ct.draftAndPublish ? null : at,
      });
      await engine.insertMany(ct.collectionName, [row]);
      ctx.events?.record('entry.create', ct.uid, row);
      if (ct.draftAndPublish && !draft) await publishRow(ctx, row);
      const explicit = explicitKeys(rawData);
      const written = Object.fromEntries(Object.entries(values).filter(([k]) => explicit.has(k)));
      await afterWrite(ctx, docId, written, inverse, draft);
      await runHook(ctx.hooks, 'afterCreate', { uid: ct.uid, documentId: docId, data, locale });
      return docId;
    });
  } catch (error) {
    throw uniqueViolation(ct, claimConflict(ct, error), attrs);
  }
}

/** Thrown inside an update's transaction when the rows read before it are gone (a concurrent delete). */
class RowsGone extends Error {}

/** How many times an update runs again after a concurrent write changed what it read before its transaction. */
const ATTEMPTS = 3;

/**
 * Updates the given locale of a document (creating that localization when the document exists in another
 * locale). Returns false when the document does not exist at all. Two concurrent writes that both create one
 * localization clash on the `document_locale_status` index: the loser runs again and updates it instead.
 */
export async function updateDocument(ctx: WriteContext, documentId: string, rawData: unknown, options: WriteOptions): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await updateOnce(ctx, documentId, rawData, options);
    } catch (error) {
      if (attempt >= ATTEMPTS || !(error instanceof RowsGone || isDocumentClash(ctx.ct, error))) throw error;
    }
  }
}

async function updateOnce(ctx: WriteContext, documentId: string, rawData: unknown, options: WriteOptions): Promise<boolean> {
  const { ct, engine } = ctx;
  const locale = ct.localized ? options.locale : null;
  const existing = await engine.find(ct.collectionName, { documentId }, { limit: 1, projection: { id: 1 } });
  if (existing.length === 0) return false;
  const rows = await localeRows(ctx, documentId, locale);
  if (rows.length === 0) {
    await createDocument(ctx, rawData, options, documentId);
    return true;
  }
  const draft = ct.draftAndPublish && options.status === 'draft';
  let data = allowedData(ctx, ctx.validator.validate(rawData, { action: 'update', draft }));
  data = await runHook(ctx.hooks, 'beforeUpdate', { uid: ct.uid, documentId, data, locale });
  let next: Row | undefined;
  try {
    await engine.transaction(async () => {
      // The draft is what a write changes (a type without draft & publish has only its published row).
      const inLocale = await localeRows(ctx, documentId, locale);
      const current = inLocale.find((r) => r._status === 'draft') ?? inLocale[0];
      if (!current) throw new RowsGone();
      const { values, inverse } = await toStoredAttributes(engine, ctx.registry, ct, data, current);
      const status = current._status as 'draft' | 'published';
      await checkUnique(engine, ct, { ...current, ...values }, { documentId, locale, status });
      next = await withInverseOrder(engine, ctx.registry, ct, current, { ...current, ...values, updatedAt: now(ctx) });
      if (!ct.draftAndPublish) next.publishedAt = next.updatedAt;
      delete next._id;
      await engine.replaceOne(ct.collectionName, { id: current.id }, next);
      ctx.events?.record('entry.update', ct.uid, next);
      if (ct.draftAndPublish && !draft) await publishRow(ctx, next);
      await afterWrite(ctx, documentId, values, inverse, draft);
      await runHook(ctx.hooks, 'afterUpdate', { uid: ct.uid, documentId, data, locale });
    });
  } catch (error) {
    throw uniqueViolation(ct, error, next);
  }
  return true;
}

/** Replaces the published row of (documentId, locale) by a fresh copy of `draftRow` (new id). */
async function publishRow(ctx: WriteContext, draftRow: Row): Promise<void> {
  const { ct, engine } = ctx;
  await runHook(ctx.hooks, 'beforePublish', { uid: ct.uid, documentId: draftRow.documentId as string, locale: draftRow.locale as string | null });
  const { _id, ...rest } = draftRow;
  void _id;
  const scope = { documentId: rest.documentId, locale: rest.locale, _status: 'published' };
  // The published version keeps the places the one it replaces had on the other sides of its relations.
  const [replaced] = await engine.find(ct.collectionName, scope, { limit: 1 });
  await engine.deleteMany(ct.collectionName, scope);
  const copy = await reidComponents(engine, ctx.registry, ct.attributes, rest);
  const fresh: Row = { ...copy, id: await engine.nextId(ct.collectionName), _status: 'published', publishedAt: now(ctx) };
  const published = await withInverseOrder(engine, ctx.registry, ct, replaced ?? null, fresh);
  await engine.insertMany(ct.collectionName, [published]);
  await syncInverseSides(engine, ctx.registry, ct, rest.documentId as string, (rest.locale ?? null) as string | null, 'draft', 'published');
  ctx.events?.record('entry.publish', ct.uid, published);
  await runHook(ctx.hooks, 'afterPublish', { uid: ct.uid, documentId: rest.documentId as string, locale: rest.locale as string | null });
}

/**
 * Publishes the draft of (documentId, locale): read and published in one transaction, so a retried transaction
 * publishes the draft as it is then. Returns false without a draft.
 */
export async function publishDraft(ctx: WriteContext, documentId: string, locale: string | null): Promise<boolean> {
  const { ct, engine } = ctx;
  let draft: Row | undefined;
  try {
    return await engine.transaction(async () => {
      [draft] = await engine.find(ct.collectionName, { documentId, ...(ct.localized ? { locale } : {}), _status: 'draft' });
      if (!draft) return false;
      await publishRow(ctx, draft);
      return true;
    });
  } catch (error) {
    throw uniqueViolation(ct, error, draft);
  }
}

/** Non-localized attribute values of an existing localization, copied into a new one. */
async function sharedValues(ctx: WriteContext, documentId: string, explicit: ReadonlySet<string>): Promise<Row> {
  const names = sharedAttributeNames(ctx.ct).filter((n) => !explicit.has(n));
  if (names.length === 0) return {};
  const [other] = await ctx.engine.find(ctx.ct.collectionName, { documentId }, { sort: { _status: 1, id: 1 }, limit: 1 });
  if (!other) return {};
  return Object.fromEntries(names.filter((n) => n in other).map((n) => [n, other[n]]));
}

function explicitKeys(data: unknown): ReadonlySet<string> {
  return new Set(data && typeof data === 'object' ? Object.keys(data) : []);
}

/**
 * What follows a row write: shared (non-localized) values copied to the other locales, exclusive relations
 * released, inverse-side relations written. As Strapi does, a publishing write syncs the shared values into
 * the other locales' published rows only, and a draft write into their drafts only.
 */
async function afterWrite(ctx: WriteContext, documentId: string, values: Row, inverse: InverseWrites, draft: boolean): Promise<void> {
  const { ct, engine } = ctx;
  const shared = sharedAttributeNames(ct).filter((n) => n in values);
  if (shared.length) {
    const set = Object.fromEntries(shared.map((n) => [n, values[n]]));
    const status = ct.draftAndPublish ? { _status: draft ? 'draft' : 'published' } : {};
    await engine.updateMany(ct.collectionName, { documentId, ...status }, { $set: set });
  }
  for (const [name, value] of Object.entries(values)) {
    const attribute = ct.attributes[name];
    if (attribute?.kind === 'relation' && attribute.owner && value !== null) {
      await releaseExclusiveTargets(engine, ct.collectionName, attribute, documentId, Array.isArray(value) ? (value as string[]) : [value as string]);
    }
  }
  for (const { attribute, payload } of inverse) await writeInverseRelation(engine, ctx.registry, attribute, documentId, payload, draft);
}
