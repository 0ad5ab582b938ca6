import { ValidationError } from '../../errors';
import type { Engine } from '../../engine';
import { inverseOrderSide, type RelationAttribute, type Registry } from '../../schema';
import { applyRelationPayload, normalizeRelationPayload, type RelationRef } from './apply-relation-payload';
import { inverseList, writeInverseList } from './inverse-list';

type Row = Record<string, unknown>;

/** Maps refs (documentId or integer id) to documentIds of `target`, checking that each one exists. */
export async function resolveRefs(engine: Engine, registry: Registry, target: string, refs: readonly RelationRef[]): Promise<string[]> {
  if (refs.length === 0) return [];
  const collection = registry.contentType(target).collectionName;
  const ids = refs.filter((r) => r.documentId === undefined).map((r) => r.id!);
  const docIds = refs.filter((r) => r.documentId !== undefined).map((r) => r.documentId!);
  const byId = new Map<number, string>();
  if (ids.length) {
    for (const row of await engine.find(collection, { id: { $in: ids } })) byId.set(row.id as number, row.documentId as string);
  }
  // documentId -> the locales it exists in (a ref with a locale must name an existing localization).
  const existing = new Map<string, Set<unknown>>();
  if (docIds.length) {
    for (const row of await engine.find(collection, { documentId: { $in: docIds } }, { projection: { documentId: 1, locale: 1 } })) {
      const locales = existing.get(row.documentId as string) ?? new Set();
      existing.set(row.documentId as string, locales.add(row.locale));
    }
  }
  const localized = registry.contentType(target).localized;
  const exists = (r: RelationRef): boolean => {
    const locales = existing.get(r.documentId!);
    return locales !== undefined && (!localized || r.locale === undefined || r.locale === null || locales.has(r.locale));
  };
  return refs.map((r) => {
    const found = r.documentId !== undefined ? (exists(r) ? r.documentId : undefined) : byId.get(r.id!);
    if (found === undefined) {
      throw new ValidationError(`Document with id "${r.documentId ?? r.id}", locale "${r.locale ?? 'null'}" not found`);
    }
    return found;
  });
}

/** Computes the new stored value (documentId, null, or ordered array) of an owning relation attribute. */
export async function resolveOwningValue(
  engine: Engine,
  registry: Registry,
  attribute: RelationAttribute,
  current: unknown,
  payload: unknown,
): Promise<string | string[] | null> {
  const p = normalizeRelationPayload(payload);
  // One after another: these reads run in the write's transaction, and operations of one session must not run in
  // parallel (the driver's ClientSession.withTransaction: "Promise.all ... inside a transaction is undefined behaviour").
  const set = p.set ? await resolveRefs(engine, registry, attribute.target, p.set) : undefined;
  const connect = await resolveRefs(engine, registry, attribute.target, p.connect);
  const disconnect = await resolveRefs(engine, registry, attribute.target, p.disconnect);
  const before = Array.isArray(current) ? (current as string[]) : typeof current === 'string' ? [current] : [];
  const next = applyRelationPayload(before, {
    set,
    connect: connect.map((documentId, i) => ({ documentId, position: p.connect[i]!.position })),
    disconnect,
    strict: p.strict,
  });
  if (attribute.toMany) return next;
  return next.length ? next[next.length - 1]! : null;
}

/**
 * Writes a relation given on the `mappedBy` side: the owning rows of the target type are updated so that they
 * point (or no longer point) to `documentId`, in the order the payload gives (positions, appends, `set`), kept
 * as each owner row's position on this side (see inverse-order). A draft-only write (`draft`) changes the draft
 * owner rows only when the owners have draft & publish: Strapi links a draft to the targets' drafts, and the
 * published side follows on publish (inverse-list `syncInverseSides`).
 */
export async function writeInverseRelation(
  engine: Engine,
  registry: Registry,
  attribute: RelationAttribute,
  documentId: string,
  payload: unknown,
  draft = false,
): Promise<void> {
  const target = registry.contentType(attribute.target);
  const owning = target.attributes[attribute.mappedBy!] as RelationAttribute;
  const field = owning.name;
  const collection = target.collectionName;
  const side = inverseOrderSide(registry, owning);
  const status: Row = draft && target.draftAndPublish ? { _status: 'draft' } : {};
  const currentIds = side ? await inverseList(engine, collection, side, documentId, status) : await linkingDocuments(engine, collection, field, documentId, status);
  const p = normalizeRelationPayload(payload);
  const set = p.set ? await resolveRefs(engine, registry, target.uid, p.set) : undefined;
  const connect = await resolveRefs(engine, registry, target.uid, p.connect);
  const disconnect = await resolveRefs(engine, registry, target.uid, p.disconnect);
  const next = applyRelationPayload(currentIds, {
    set,
    connect: connect.map((d, i) => ({ documentId: d, position: p.connect[i]!.position })),
    disconnect,
    strict: p.strict,
  });
  const removed = currentIds.filter((d) => !next.includes(d));
  const added = next.filter((d) => !currentIds.includes(d));
  if (owning.toMany) {
    if (removed.length) await engine.updateMany(collection, { documentId: { $in: removed }, ...status }, { $pull: { [field]: documentId } });
    for (const d of added) {
      await engine.updateMany(collection, { documentId: d, [field]: { $ne: documentId }, ...status }, { $push: { [field]: documentId } });
    }
  } else {
    if (removed.length) await engine.updateMany(collection, { documentId: { $in: removed }, [field]: documentId, ...status }, { $set: { [field]: null } });
    if (added.length) await engine.updateMany(collection, { documentId: { $in: added }, ...status }, { $set: { [field]: documentId } });
  }
  if (side) await writeInverseList(engine, collection, side, documentId, next, status);
}

/** The documents whose rows (in `scope`) link `documentId` through `field` (no order kept on this side). */
async function linkingDocuments(engine: Engine, collection: string, field: string, documentId: string, scope: Row): Promise<string[]> {
  const rows = await engine.find(collection, { [field]: documentId, ...scope }, { projection: { documentId: 1 } });
  return [...new Set(rows.map((r) => r.documentId as string))];
}

/**
 * Keeps exclusive relations consistent: a oneToOne/oneToMany target owned by this document is removed from
 * every other owner (a target can have only one owner on those kinds).
 */
export async function releaseExclusiveTargets(
  engine: Engine,
  collection: string,
  attribute: RelationAttribute,
  documentId: string,
  targets: readonly string[],
): Promise<void> {
  if (!attribute.inversedBy || targets.length === 0) return;
  if (attribute.relation === 'oneToOne') {
    await engine.updateMany(collection, { documentId: { $ne: documentId }, [attribute.name]: { $in: targets } }, { $set: { [attribute.name]: null } });
  } else if (attribute.relation === 'oneToMany') {
    await engine.updateMany(collection, { documentId: { $ne: documentId }, [attribute.name]: { $in: targets } }, { $pullAll: { [attribute.name]: [...targets] } });
  }
}

export type { Row };
