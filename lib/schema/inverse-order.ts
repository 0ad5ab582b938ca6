import type { Attribute, Registry } from './types';

/**
 * The internal field of an owner row holding its positions on the other (to-many `mappedBy`) side of its
 * relations: Strapi's inverse order column (`article_ord` in the `articles_author_lnk` join table of
 * `article.author`, strapi/strapi packages/core/database/src/metadata/relations.ts). Per owning attribute:
 * - to-one owner (`article.author`): `{ author: 3 }`, the row's position in the target's list;
 * - to-many owner (`article.categories`): `{ categories: [{ d: '<category documentId>', n: 2 }, ...] }`, one
 *   position per linked target (an entry for a target the row no longer links is ignored).
 * Never served; a row without it (written before it existed) sorts first, by `id` (docs/storage-model.md).
 */
export const INVERSE_ORDER_FIELD = '_inverseOrder';

/** How an owning attribute keeps positions on its other side. */
export interface InverseOrderSide {
  /** The owning attribute (on the owner rows). */
  readonly field: string;
  /** Whether the owning attribute is to-many (positions per target) or to-one (one position). */
  readonly toMany: boolean;
}

/**
 * Whether an owning relation attribute has a to-many other side whose order Strapi keeps (oneToMany or
 * manyToMany `mappedBy`): its owner rows then carry {@link INVERSE_ORDER_FIELD} for it. Undefined otherwise
 * (one-way relations, a oneToOne or manyToOne other side).
 *
 * @example
 * inverseOrderSide(registry, article.attributes.author) // { field: 'author', toMany: false }
 */
export function inverseOrderSide(registry: Registry, attribute: Attribute | undefined): InverseOrderSide | undefined {
  if (attribute?.kind !== 'relation' || !attribute.owner || attribute.inversedBy === undefined) return undefined;
  const other = registry.contentTypes.get(attribute.target)?.attributes[attribute.inversedBy];
  if (other?.kind !== 'relation' || !other.toMany) return undefined;
  return { field: attribute.name, toMany: attribute.toMany };
}
