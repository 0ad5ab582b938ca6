import type { ContentType, Registry, ScalarType } from '../schema';
import type { IndexSpec } from './types';

/**
 * The collection of single-type claims: `{ _id: <uid>, documentId }`, written by the transaction that creates a
 * single type's document, so that two concurrent first writes conflict on it (docs/storage-model.md). The leading
 * underscore keeps it apart from content-type collections (their names come from kebab-case API ids).
 */
export const SINGLE_TYPES_COLLECTION = '_single_types';

const UNIQUE_PREFIX = 'unique_';

/** How each scalar type is stored (docs/storage-model.md): the `$type` a unique value has. json/blocks: none. */
const STORED_TYPE: Partial<Record<ScalarType, 'string' | 'number' | 'bool'>> = {
  string: 'string', text: 'string', richtext: 'string', email: 'string', password: 'string', uid: 'string',
  enumeration: 'string', date: 'string', time: 'string', datetime: 'string', timestamp: 'string', biginteger: 'string',
  integer: 'number', float: 'number', decimal: 'number', boolean: 'bool',
};

/**
 * The name of the unique index of a `unique: true` (or `uid`) attribute.
 *
 * @example
 * uniqueIndexName('slug') // 'unique_slug'
 */
export function uniqueIndexName(attribute: string): string {
  return `${UNIQUE_PREFIX}${attribute}`;
}

/**
 * The attribute a unique index of {@link indexesFor} guards, or undefined for other indexes.
 *
 * @example
 * uniqueIndexAttribute('unique_slug') // 'slug'
 */
export function uniqueIndexAttribute(index: string): string | undefined {
  return index.startsWith(UNIQUE_PREFIX) ? index.slice(UNIQUE_PREFIX.length) : undefined;
}

/**
 * The collections and indexes of a registry (docs/storage-model.md "Indexes"). Every foreign field a compiled
 * `$lookup` joins on is the first key of one of them, so each join is an index probe on MongoDB: `documentId`
 * (owning relations, localizations), `id` (media, in `files`), each owning relation field (the `mappedBy`
 * side). The `list_scope_id` index serves a list read: the equalities of its root `$match` (`_status`, `locale`, only
 * those the type has) then its default sort `id`, in the manual's Equality, Sort, Range order
 * (https://www.mongodb.com/docs/manual/tutorial/equality-sort-range-guideline/,
 * https://www.mongodb.com/docs/manual/tutorial/sort-results-with-indexes/). A `unique: true` or `uid` attribute
 * gets a unique index scoped like Strapi's rule (same locale and status), partial on the value's stored type so
 * that the rows without a value (`null`, missing) never clash: a unique index would otherwise index them as
 * `null` and allow only one (https://www.mongodb.com/docs/manual/core/index-unique/,
 * https://www.mongodb.com/docs/manual/core/index-partial/). json and blocks values get none (an array value would
 * make the index multikey, unique per element): the write's check still applies to them. Index names are fixed:
 * they identify an index across versions.
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
    indexes.push(...uniqueIndexes(ct));
    out.push({ name: ct.collectionName, indexes });
  }
  if ([...registry.contentTypes.values()].some((ct) => ct.kind === 'singleType')) out.push({ name: SINGLE_TYPES_COLLECTION, indexes: [] });
  return out;
}

function uniqueIndexes(ct: ContentType): IndexSpec[] {
  const out: IndexSpec[] = [];
  for (const a of Object.values(ct.attributes)) {
    if (a.kind !== 'scalar' || a.system || !(a.unique || a.type === 'uid')) continue;
    const type = STORED_TYPE[a.type];
    if (!type) continue;
    out.push({
      name: uniqueIndexName(a.name),
      keys: { [a.name]: 1, locale: 1, _status: 1 },
      unique: true,
      partialFilter: { [a.name]: { $type: type } },
    });
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
