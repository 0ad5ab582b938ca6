import type { InversePosition } from '../../documents/relations/inverse-order';
import { inverseOrderSide, type Attribute, type Registry } from '../../schema';
import type { ImportPlan, OwnedLink } from './import-plan';

/**
 * The stored positions (docs/storage-model.md, `_inverseOrder`) of an imported owner row for one relation field:
 * each link's rank on its target's side (rankInversePositions),
 * `links` in the owning side's order. A number for a to-one owner, `[{ d, n }]` for a to-many one (the first link
 * to a document wins); undefined when the other side keeps no order or the export gives no position.
 *
 * @example
 * importedInverseOrder(registry, article.attributes.author, [{ documentId: 'a1', pos: 3 }]) // 3
 */
export function importedInverseOrder(
  registry: Registry,
  attribute: Attribute,
  links: readonly { documentId: string | undefined; pos: number | null }[],
): number | InversePosition[] | undefined {
  const side = inverseOrderSide(registry, attribute);
  if (!side) return undefined;
  const known = links.filter((l): l is { documentId: string; pos: number } => l.documentId !== undefined && l.pos !== null);
  if (!side.toMany) return known[0]?.pos;
  const seen = new Set<string>();
  const pairs = known.filter((l) => !seen.has(l.documentId) && seen.add(l.documentId)).map((l) => ({ d: l.documentId, n: l.pos }));
  return pairs.length > 0 ? pairs : undefined;
}

/**
 * The position of each relation link of the plan on its target's side, as 1, 2, ... per target row and field:
 * the export's `right.pos` order (Strapi's inverse order column, with its gaps), ties in the export's order. So
 * a store imported from our own export of it holds the same positions.
 */
export function rankInversePositions(plan: ImportPlan): Map<OwnedLink, number> {
  const groups = new Map<string, OwnedLink[]>();
  for (const [owner, fields] of plan.links) {
    const ownerType = owner.slice(0, owner.indexOf('\u0000'));
    for (const [field, links] of fields) {
      for (const link of links) {
        if (link.inversePos === undefined || link.inversePos === null) continue;
        const key = `${ownerType}\u0000${field}\u0000${link.type}\u0000${link.ref}`;
        const group = groups.get(key) ?? [];
        groups.set(key, group);
        group.push(link);
      }
    }
  }
  const ranks = new Map<OwnedLink, number>();
  for (const group of groups.values()) {
    group.sort((a, b) => a.inversePos! - b.inversePos! || a.seq - b.seq).forEach((link, i) => ranks.set(link, i + 1));
  }
  return ranks;
}
