import type { Engine } from '../../engine';
import { INVERSE_ORDER_FIELD, inverseOrderSide, type ContentType, type InverseOrderSide, type Registry } from '../../schema';
import { linkedTargets, positionOf, type InversePosition } from './inverse-order';

type Row = Record<string, unknown>;

const isObject = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The owner rows that link `target` through `side`, with what ordering them needs. */
async function linkingRows(engine: Engine, collection: string, side: InverseOrderSide, target: string, scope: Row = {}): Promise<Row[]> {
  const projection: Record<string, 0 | 1> = { id: 1, documentId: 1, _status: 1, [side.field]: 1, [INVERSE_ORDER_FIELD]: 1 };
  return engine.find(collection, { [side.field]: target, ...scope }, { projection });
}

/**
 * The documents listed on the `mappedBy` side of `side` for the document `target`, in the kept order: drafts
 * first (what an editor orders), then by position (rows without one first), then by row id, each document once.
 * `scope` narrows the owner rows (`{ _status: 'draft' }`: the draft side only).
 *
 * @example
 * await inverseList(engine, 'articles', { field: 'author', toMany: false }, authorId) // ['a2', 'a1']
 */
export async function inverseList(engine: Engine, collection: string, side: InverseOrderSide, target: string, scope: Row = {}): Promise<string[]> {
  const rows = await linkingRows(engine, collection, side, target, scope);
  const key = (r: Row): [number, number, number] => [r._status === 'draft' ? 0 : 1, positionOf(r, side, target) ?? -Infinity, Number(r.id)];
  const sorted = rows.map((r) => ({ r, k: key(r) })).sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.k[2] - b.k[2]);
  return [...new Set(sorted.map(({ r }) => r.documentId as string))];
}

/** The stored positions of `row` with its position for `target` set to `n`. */
function positionsWith(row: Row, side: InverseOrderSide, target: string, n: number): Row {
  const stored = isObject(row[INVERSE_ORDER_FIELD]) ? { ...(row[INVERSE_ORDER_FIELD] as Row) } : {};
  if (!side.toMany) return { ...stored, [side.field]: n };
  const pairs = linkedTargets(row[side.field]).flatMap((d): InversePosition[] => {
    const at = d === target ? n : positionOf(row, side, d);
    return at === undefined ? [] : [{ d, n: at }];
  });
  return { ...stored, [side.field]: pairs };
}

/**
 * Stores `list` (documentIds, in order) as the order of the `mappedBy` side of `side` for `target`: each owner
 * row of the i-th document gets position i + 1 there (every status and locale of it in `scope`, as the link itself
 * is written). Rows already in place are not written.
 */
export async function writeInverseList(engine: Engine, collection: string, side: InverseOrderSide, target: string, list: readonly string[], scope: Row = {}): Promise<void> {
  const place = new Map(list.map((d, i) => [d, i + 1]));
  for (const row of await linkingRows(engine, collection, side, target, scope)) {
    const n = place.get(row.documentId as string);
    if (n === undefined || positionOf(row, side, target) === n) continue;
    await engine.updateMany(collection, { id: row.id }, { $set: { [INVERSE_ORDER_FIELD]: positionsWith(row, side, target, n) } });
  }
}

type Status = 'draft' | 'published';

/** The version an owner row is: its documentId and locale (one row per status). */
const versionKey = (row: Row): string => `${String(row.documentId)}\u0000${String(row.locale ?? '')}`;

/**
 * Gives the `to` versions of the owners the links the `from` versions have to `target` through `side`, as Strapi
 * rebuilds the links of a version it replaces (a publish creates the published version from the draft, with its
 * relations, `mappedBy` sides included, mapped to the targets' published versions; a discard the reverse:
 * strapi/strapi packages/core/core/src/services/document-service/repository.ts, `publish` and `discardDraft`):
 * the `to` row of a `from` version that links `target` gets the link (a to-one owner then leaves the document it
 * linked: one value per row, as Strapi's `manyToOne`), an owner without a `to` version gets nothing. A to-one owner's
 * `to` row whose `from` version does not link `target` loses the link: the old version's join rows go with it and
 * Strapi's `bidirectional-relations` sync restores none (a manyToOne owner's join table has no order column, which
 * that sync needs). A to-many owner keeps such a link: that sync re-inserts the old version's join rows of an
 * owner with an order column (utils/bidirectional-relations.ts `sync`). `scope` narrows the owner rows (a locale).
 */
async function copyInverseLinks(engine: Engine, collection: string, side: InverseOrderSide, target: string, from: Status, to: Status, scope: Row): Promise<void> {
  const rows = await engine.find(collection, { [side.field]: target, ...scope }, { projection: { documentId: 1, locale: 1, _status: 1 } });
  const linked = new Set(rows.filter((r) => r._status === from).map(versionKey));
  const kept = new Set<string>();
  for (const row of rows) {
    if (row._status !== to) continue;
    kept.add(versionKey(row));
    if (side.toMany || linked.has(versionKey(row))) continue;
    const filter = { documentId: row.documentId, locale: row.locale ?? null, _status: to };
    // Its position stays, ignored (positionOf and the populate read a position only where the row links).
    await engine.updateMany(collection, filter, { $set: { [side.field]: null } });
  }
  for (const key of linked) {
    if (kept.has(key)) continue;
    const [documentId, locale] = key.split('\u0000') as [string, string];
    const filter = { documentId, locale: locale === '' ? null : locale, _status: to };
    if (side.toMany) await engine.updateMany(collection, { ...filter, [side.field]: { $ne: target } }, { $push: { [side.field]: target } });
    else await engine.updateMany(collection, filter, { $set: { [side.field]: target } });
  }
}

/**
 * Gives the `to` side of `target`'s list the order of its `from` side (Strapi links the new version to the owners
 * in the order of the version it is made from): the `to` owner rows of the documents `from` lists take their places
 * in that order, any other `to` row after them, in its order.
 */
async function copyInverseList(engine: Engine, collection: string, side: InverseOrderSide, target: string, from: Status, to: Status, scope: Row): Promise<void> {
  const rows = await linkingRows(engine, collection, side, target, scope);
  const destination = rows.filter((r) => r._status === to);
  if (destination.length === 0 || destination.length === rows.length) return;
  const key = (r: Row): [number, number] => [positionOf(r, side, target) ?? -Infinity, Number(r.id)];
  const ordered = (status: Status): string[] => {
    const sorted = rows.filter((r) => r._status === status).map((r) => ({ r, k: key(r) })).sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1]);
    return [...new Set(sorted.map(({ r }) => r.documentId as string))];
  };
  const listed = ordered(from);
  const others = ordered(to).filter((d) => !listed.includes(d));
  const place = new Map([...listed, ...others].map((d, i) => [d, i + 1]));
  for (const row of destination) {
    const n = place.get(row.documentId as string)!;
    if (positionOf(row, side, target) === n) continue;
    await engine.updateMany(collection, { id: row.id }, { $set: { [INVERSE_ORDER_FIELD]: positionsWith(row, side, target, n) } });
  }
}

/**
 * After a new `to` version of (documentId, locale) of `ct` was made from its `from` version (publish: draft ->
 * published; discard: published -> draft): each of its to-many `mappedBy` sides whose owners have draft & publish
 * gets, on the `to` side, the links and the order of the `from` side (copyInverseLinks, copyInverseList). Owners
 * without draft & publish have one row for both versions: nothing to do. When both types are localized only the
 * owner rows of that locale are concerned (a localized `mappedBy` side lists the owner rows of its own locale).
 *
 * @example
 * await syncInverseSides(engine, registry, author, authorId, null, 'draft', 'published') // on publish
 */
export async function syncInverseSides(engine: Engine, registry: Registry, ct: ContentType, documentId: string, locale: string | null, from: Status, to: Status): Promise<void> {
  for (const name of ct.attributeNames) {
    const a = ct.attributes[name]!;
    if (a.kind !== 'relation' || a.owner || a.mappedBy === undefined || !a.toMany) continue;
    const owner = registry.contentTypes.get(a.target);
    const side = owner?.draftAndPublish ? inverseOrderSide(registry, owner.attributes[a.mappedBy]) : undefined;
    if (!owner || !side) continue;
    const scope = owner.localized && ct.localized ? { locale } : {};
    await copyInverseLinks(engine, owner.collectionName, side, documentId, from, to, scope);
    await copyInverseList(engine, owner.collectionName, side, documentId, from, to, scope);
  }
}
