import type { Engine } from '../../engine';
import { INVERSE_ORDER_FIELD, type InverseOrderSide } from '../../schema';
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
