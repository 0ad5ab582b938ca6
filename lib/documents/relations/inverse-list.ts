import type { Engine } from '../../engine';
import { INVERSE_ORDER_FIELD, inverseOrderSide, type ContentType, type InverseOrderSide, type Registry } from '../../schema';
import { linkedTargets, positionOf, type InversePosition } from './inverse-order';

type Row = Record<string, unknown>;

const isObject = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The owner rows that link `target` through `side`, with what ordering them needs. */
async function linkingRows(engine: Engine, collection: string, side: InverseOrderSide, target: string): Promise<Row[]> {
  const projection: Record<string, 0 | 1> = { id: 1, documentId: 1, _status: 1, [side.field]: 1, [INVERSE_ORDER_FIELD]: 1 };
  return engine.find(collection, { [side.field]: target }, { projection });
}

/**
 * The documents listed on the `mappedBy` side of `side` for the document `target`, in the kept order: drafts
 * first (what an editor orders), then by position (rows without one first), then by row id, each document once.
 *
 * @example
 * await inverseList(engine, 'articles', { field: 'author', toMany: false }, authorId) // ['a2', 'a1']
 */
export async function inverseList(engine: Engine, collection: string, side: InverseOrderSide, target: string): Promise<string[]> {
  const rows = await linkingRows(engine, collection, side, target);
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
 * row of the i-th document gets position i + 1 there (every status and locale of it, as the link itself is
 * written). Rows already in place are not written.
 */
export async function writeInverseList(engine: Engine, collection: string, side: InverseOrderSide, target: string, list: readonly string[]): Promise<void> {
  const place = new Map(list.map((d, i) => [d, i + 1]));
  for (const row of await linkingRows(engine, collection, side, target)) {
    const n = place.get(row.documentId as string);
    if (n === undefined || positionOf(row, side, target) === n) continue;
    await engine.updateMany(collection, { id: row.id }, { $set: { [INVERSE_ORDER_FIELD]: positionsWith(row, side, target, n) } });
  }
}

/**
 * Publishing a document whose to-many `mappedBy` side keeps an order gives the published side the draft's order,
 * as Strapi's publish does (it links the new published version to the published owners in the draft's list
 * order): the published owner rows of the documents listed by the drafts take their places in that order, any
 * other published owner row after them, in its order. Only when the owner type has draft & publish (otherwise
 * both versions list the same rows).
 */
export async function publishInverseList(engine: Engine, collection: string, side: InverseOrderSide, target: string): Promise<void> {
  const rows = await linkingRows(engine, collection, side, target);
  const published = rows.filter((r) => r._status === 'published');
  if (published.length === 0 || published.length === rows.length) return;
  const drafts = (await inverseList(engine, collection, side, target)).filter((d) => rows.some((r) => r.documentId === d && r._status === 'draft'));
  const others = published.map((r) => r.documentId as string).filter((d) => !drafts.includes(d));
  const place = new Map([...drafts, ...others].map((d, i) => [d, i + 1]));
  for (const row of published) {
    const n = place.get(row.documentId as string)!;
    if (positionOf(row, side, target) === n) continue;
    await engine.updateMany(collection, { id: row.id }, { $set: { [INVERSE_ORDER_FIELD]: positionsWith(row, side, target, n) } });
  }
}

/**
 * After publishing a document of `ct`: each of its to-many `mappedBy` sides that keeps an order, on owners with
 * draft & publish, gets the draft's order on the published side (publishInverseList).
 */
export async function publishInverseOrders(engine: Engine, registry: Registry, ct: ContentType, documentId: string): Promise<void> {
  for (const name of ct.attributeNames) {
    const a = ct.attributes[name]!;
    if (a.kind !== 'relation' || a.owner || a.mappedBy === undefined || !a.toMany) continue;
    const owner = registry.contentTypes.get(a.target);
    const side = owner?.draftAndPublish ? inverseOrderSide(registry, owner.attributes[a.mappedBy]) : undefined;
    if (owner && side) await publishInverseList(engine, owner.collectionName, side, documentId);
  }
}
