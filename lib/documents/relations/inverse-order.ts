import type { Engine } from '../../engine';
import { INVERSE_ORDER_FIELD, inverseOrderSide, type ContentType, type InverseOrderSide, type Registry } from '../../schema';

type Row = Record<string, unknown>;

/** One position of a to-many owner row on the other side: the target's documentId and the position there. */
export interface InversePosition {
  readonly d: string;
  readonly n: number;
}

const isObject = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The documentIds an owning value links (a documentId, an array of them, or nothing). */
export function linkedTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The sides of `ct`'s owning attributes that keep an order on their other side. */
export function inverseOrderSides(registry: Registry, ct: ContentType): InverseOrderSide[] {
  return ct.attributeNames.map((name) => inverseOrderSide(registry, ct.attributes[name])).filter((s): s is InverseOrderSide => s !== undefined);
}

/**
 * The position of `row` in the list of `target` on the other side of `side`, or undefined (the row does not link
 * it, or was written before positions were kept).
 */
export function positionOf(row: Row, side: InverseOrderSide, target: string): number | undefined {
  if (!linkedTargets(row[side.field]).includes(target)) return undefined;
  const stored = isObject(row[INVERSE_ORDER_FIELD]) ? (row[INVERSE_ORDER_FIELD] as Row)[side.field] : undefined;
  if (!side.toMany) return typeof stored === 'number' && Number.isFinite(stored) ? stored : undefined;
  if (!Array.isArray(stored)) return undefined;
  const entry = (stored as unknown[]).find((p): p is InversePosition => isObject(p) && p.d === target);
  return entry && typeof entry.n === 'number' && Number.isFinite(entry.n) ? entry.n : undefined;
}

/**
 * For each target, the position after the last of its list (Strapi: the max of the inverse order column of the
 * target's links, plus one): a link made from the owning side goes at the end of the other side. Rows without a
 * position count as 0 (they sort first, by id). Read in the write's transaction, but two concurrent appends to one
 * target write different owner rows, which MongoDB does not count as a write conflict (only two transactions
 * modifying one document conflict:
 * https://www.mongodb.com/docs/manual/core/transactions-production-consideration/#in-progress-transactions-and-write-conflicts):
 * both may take the same position and then list by row id (docs/storage-model.md). The memory engine runs one
 * transaction at a time.
 */
export async function appendPositions(engine: Engine, collection: string, side: InverseOrderSide, targets: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (targets.length === 0) return out;
  const rows = await engine.find(collection, { [side.field]: { $in: [...targets] } }, { projection: { [side.field]: 1, [INVERSE_ORDER_FIELD]: 1 } });
  for (const target of targets) {
    let max = 0;
    for (const row of rows) max = Math.max(max, positionOf(row, side, target) ?? 0);
    out.set(target, max + 1);
  }
  return out;
}

/**
 * The {@link INVERSE_ORDER_FIELD} value of `next`, a row written in place of `prev` (null: a new row): a target
 * both link keeps `prev`'s position there (or its lack of one) (Strapi keeps the link; on publish and discard it restores the order
 * the replaced version had, strapi/strapi packages/core/core/src/services/document-service/utils/
 * bidirectional-relations.ts), a newly linked target puts the row at the end of its list. Undefined when the
 * type keeps no order on another side.
 *
 * @example
 * await nextInverseOrder(engine, registry, article, current, { ...current, author: 'b' }) // { author: 7 }
 */
export async function nextInverseOrder(engine: Engine, registry: Registry, ct: ContentType, prev: Row | null, next: Row): Promise<Row | undefined> {
  const sides = inverseOrderSides(registry, ct);
  if (sides.length === 0) return undefined;
  const out: Row = {};
  for (const side of sides) {
    const targets = [...new Set(linkedTargets(next[side.field]))];
    // A link `prev` already had keeps its position, or its lack of one (a row stored before positions were kept
    // stays in its place, by id); a new link goes at the end.
    const before = new Set(prev ? linkedTargets(prev[side.field]) : []);
    const added = await appendPositions(engine, ct.collectionName, side, targets.filter((t) => !before.has(t)));
    const at = (t: string): number | undefined => (before.has(t) ? positionOf(prev!, side, t) : added.get(t));
    if (side.toMany) {
      out[side.field] = targets.flatMap((d): InversePosition[] => {
        const n = at(d);
        return n === undefined ? [] : [{ d, n }];
      });
    } else {
      const n = targets.length > 0 ? at(targets[targets.length - 1]!) : undefined;
      if (n !== undefined) out[side.field] = n;
    }
  }
  return out;
}

/** `row` with its positions for `next` (see nextInverseOrder); the same row when the type keeps none. */
export async function withInverseOrder(engine: Engine, registry: Registry, ct: ContentType, prev: Row | null, row: Row): Promise<Row> {
  const order = await nextInverseOrder(engine, registry, ct, prev, row);
  return order === undefined ? row : { ...row, [INVERSE_ORDER_FIELD]: order };
}
