import type { Engine } from '../../engine';
import { positionOf } from '../../documents/relations/inverse-order';
import { INVERSE_ORDER_FIELD, inverseOrderSide, type Registry } from '../../schema';
import { readRows } from './read-rows';
import { targetRow, type RowIndex } from './row-index';

/**
 * The position of each link on its to-many inverse side, as the export writes it (`right.pos`, Strapi's inverse
 * order column): by `inverseKey(...)`, 1, 2, ... in the order this API lists that side (the stored position,
 * rows without one first, then the owner row's id; docs/storage-model.md "Resolving relations").
 */
export type InverseRanks = Map<string, number>;

/** The key of one link in {@link InverseRanks}: target type, target row, inverse field, owner row. */
export const inverseKey = (targetType: string, targetRowId: number, field: string, ownerRowId: number): string =>
  `${targetType}\u0000${targetRowId}\u0000${field}\u0000${ownerRowId}`;

/**
 * Reads the owner rows of every relation whose other side keeps an order (a page at a time; keys and numbers only
 * are kept) and ranks the links of each target row.
 */
export async function inverseRanks(engine: Engine, registry: Registry, index: RowIndex): Promise<InverseRanks> {
  const ranks: InverseRanks = new Map();
  for (const ct of registry.contentTypes.values()) {
    for (const name of ct.attributeNames) {
      const a = ct.attributes[name]!;
      const side = inverseOrderSide(registry, a);
      if (!side || a.kind !== 'relation') continue;
      const lists = new Map<number, { owner: number; n: number }[]>();
      const projection = { id: 1, locale: 1, _status: 1, [name]: 1, [INVERSE_ORDER_FIELD]: 1 } as Record<string, 0 | 1>;
      for await (const row of readRows(engine, ct.collectionName, projection)) {
        const from = { status: row._status as string, locale: (row.locale as string | null) ?? null };
        const values = Array.isArray(row[name]) ? (row[name] as unknown[]) : [row[name]];
        for (const documentId of new Set(values.filter((v): v is string => typeof v === 'string'))) {
          const target = targetRow(index, registry, a.target, documentId, from);
          if (target === undefined) continue;
          const list = lists.get(target) ?? [];
          lists.set(target, list);
          list.push({ owner: row.id as number, n: positionOf(row, side, documentId) ?? -Infinity });
        }
      }
      for (const [target, list] of lists) {
        list.sort((x, y) => x.n - y.n || x.owner - y.owner);
        list.forEach(({ owner }, i) => ranks.set(inverseKey(a.target, target, a.inversedBy!, owner), i + 1));
      }
    }
  }
  return ranks;
}
