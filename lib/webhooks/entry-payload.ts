import type { Engine, Row } from '../engine';
import { findOne } from '../documents/read-documents';
import { paramsToQuery } from '../documents/document-params';
import { formatDocument } from '../format';
import type { Query } from '../query/types';
import type { Attributes, ContentType, Registry } from '../schema';

/** Deep populates nest at most as deep as the model does (components cannot contain themselves). */
const LIMITS = { defaultLimit: 1, maxLimit: 1, maxDepth: 1000 };

/**
 * Strapi's `getDeepPopulate(uid)` (document-service/utils/populate.ts), the populate of an event's entry: every
 * relation one level (its scalar fields), every media, every component and dynamic zone with all of theirs,
 * recursively. Morph relations are left out, as in Strapi. `only` keeps the named top-level attributes.
 */
function deepPopulate(registry: Registry, attributes: Attributes, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const attribute = attributes[name];
    if (!attribute || attribute.private) continue;
    if (attribute.kind === 'relation' || attribute.kind === 'media') out[name] = true;
    else if (attribute.kind === 'component') out[name] = componentPopulate(registry, attribute.component);
    else if (attribute.kind === 'dynamiczone') {
      out[name] = { on: Object.fromEntries(attribute.components.map((uid) => [uid, componentPopulate(registry, uid)])) };
    }
  }
  return out;
}

function componentPopulate(registry: Registry, uid: string): true | { populate: Record<string, unknown> } {
  const component = registry.component(uid);
  const populate = deepPopulate(registry, component.attributes, component.attributeNames);
  return Object.keys(populate).length === 0 ? true : { populate };
}

/**
 * Relations that Strapi links to both versions of their target: from a type without draft & publish to one with
 * it (`getRelationTargetStatus`: "DP disabled ... connect to both draft and published versions").
 */
function bothVersionRelations(registry: Registry, ct: ContentType): string[] {
  if (ct.draftAndPublish) return [];
  return ct.attributeNames.filter((name) => {
    const attribute = ct.attributes[name];
    return attribute?.kind === 'relation' && !attribute.private && registry.contentType(attribute.target).draftAndPublish;
  });
}

/** One compiled query per type, status, locale and attribute set (frozen: its pipeline compiles once). */
const queries = new WeakMap<Registry, Map<string, Query>>();

function entryQuery(registry: Registry, ct: ContentType, status: 'draft' | 'published', locale: string | undefined, names: readonly string[]): Query {
  let byKey = queries.get(registry);
  if (!byKey) queries.set(registry, (byKey = new Map()));
  const key = `${ct.uid}\u0000${status}\u0000${locale ?? ''}\u0000${names.join(',')}`;
  let query = byKey.get(key);
  if (!query) {
    const params = { populate: deepPopulate(registry, ct.attributes, names), status, ...(locale === undefined ? {} : { locale }) };
    // The parser reads a type without draft & publish as published; its relations to types with it follow `status`.
    query = Object.freeze({ ...paramsToQuery({ registry, ct, rest: LIMITS }, params, 'findOne'), status });
    byKey.set(key, query);
  }
  return query;
}

/**
 * A relation listed in both versions: the draft read's rows and the published read's, each target's draft first
 * (Strapi links both when the relation is written), in the order of the rows' ids for the `mappedBy` side.
 */
function mergeVersions(draft: unknown, published: unknown): unknown {
  const drafts = Array.isArray(draft) ? (draft as Row[]) : draft ? [draft as Row] : [];
  const pubs = Array.isArray(published) ? (published as Row[]) : published ? [published as Row] : [];
  if (!Array.isArray(draft) && !Array.isArray(published)) return drafts[0] ?? pubs[0] ?? null;
  const order = [...new Set([...drafts, ...pubs].map((r) => r.documentId))];
  return order.flatMap((documentId) => [...drafts.filter((r) => r.documentId === documentId), ...pubs.filter((r) => r.documentId === documentId)]);
}

/**
 * The `entry` of an `entry.create`, `entry.update`, `entry.publish` or `entry.draft-discard` event, read in the
 * write's transaction: the row with Strapi's deep populate, as the REST API formats it (private attributes left
 * out, as Strapi's output sanitizer does). Null when the row is gone.
 *
 * @example
 * const entry = await populatedEntry(registry, engine, article, { id: 12, _status: 'draft', locale: 'en' });
 */
export async function populatedEntry(registry: Registry, engine: Engine, ct: ContentType, row: Row): Promise<Row | null> {
  const status = row._status === 'draft' ? 'draft' : 'published';
  const locale = ct.localized && typeof row.locale === 'string' ? row.locale : undefined;
  const entry = await findOne(registry, engine, ct, entryQuery(registry, ct, status, locale, ct.attributeNames), { id: row.id });
  const both = bothVersionRelations(registry, ct);
  if (!entry || both.length === 0) return entry;
  const drafts = await findOne(registry, engine, ct, entryQuery(registry, ct, 'draft', locale, both), { id: row.id });
  for (const name of both) entry[name] = mergeVersions(drafts?.[name], entry[name]);
  return entry;
}

/**
 * The `entry` of an `entry.delete` or `entry.unpublish` event: the stored row's own fields, nothing populated (Strapi
 * does not populate a row it deletes).
 *
 * @example
 * scalarEntry(registry, 'api::article.article', row); // { id, documentId, title, ..., createdAt, locale }
 */
export function scalarEntry(registry: Registry, uid: string, row: Row): Row {
  return formatDocument(registry, uid, row, { fields: null, populate: {} });
}
