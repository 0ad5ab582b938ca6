import type { Registry } from '../schema';
import type { ContentType } from '../schema/types';
import type { IndexSpec } from './types';

/**
 * The collections and indexes of a registry (docs/storage-model.md "Indexes"). Every foreign field a compiled
 * `$lookup` joins on is the first key of one of them, so each join is an index probe on MongoDB: `documentId`
 * (owning relations, localizations), `id` (media, in `files`), each owning relation field (the `mappedBy`
 * side). The `list_scope_id` index serves a list read: the equalities of its root `$match` (`_status`, `locale`, only
 * those the type has) then its default sort `id`, in the manual's Equality, Sort, Range order
 * (https://www.mongodb.com/docs/manual/tutorial/equality-sort-range-guideline/,
 * https://www.mongodb.com/docs/manual/tutorial/sort-results-with-indexes/). Index names are fixed: they identify
 * an index across versions.
 *
 * @example
 * indexesFor(registry).find((c) => c.name === 'articles')?.indexes.map((i) => i.name)
 * // ['document_locale_status', 'id', 'list_scope_id', 'author', 'categories', 'cover']
 */
export function indexesFor(registry: Registry): { name: string; indexes: IndexSpec[] }[] {
  const out: { name: string; indexes: IndexSpec[] }[] = [];
  for (const ct of registry.contentTypes.values()) {
    const indexes: IndexSpec[] = [
      { name: 'document_locale_status', keys: { documentId: 1, locale: 1, _status: 1 }, unique: true },
      { name: 'id', keys: { id: 1 }, unique: true },
    ];
    const list = listKeys(ct);
    if (list) indexes.push({ name: 'list_scope_id', keys: list });
    for (const a of Object.values(ct.attributes)) {
      if ((a.kind === 'relation' && a.owner) || a.kind === 'media') indexes.push({ name: a.name, keys: { [a.name]: 1 } });
    }
    out.push({ name: ct.collectionName, indexes });
  }
  return out;
}

/** `{ _status?, locale?, id }` (pipeline/compile-find's scope, then the default sort); none when it is `{ id }` alone. */
function listKeys(ct: ContentType): Record<string, 1> | null {
  const keys: Record<string, 1> = {};
  if (ct.draftAndPublish) keys._status = 1;
  if (ct.localized) keys.locale = 1;
  if (Object.keys(keys).length === 0) return null;
  keys.id = 1;
  return keys;
}
