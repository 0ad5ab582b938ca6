import type { Engine } from '../engine';
import type { ContentType, RelationAttribute, Registry } from '../schema';
import { uniqueError } from '../schema/validate-body';
import { checkMediaReferences } from './check-media';
import { prepareEmbedded, type PrepareState } from './prepare-components';
import { resolveOwningValue } from './relations/resolve-relations';

type Row = Record<string, unknown>;

/** The inverse-side relation payloads of a write, applied once the row exists. */
export type InverseWrites = { attribute: RelationAttribute; payload: unknown }[];

/**
 * Turns validated body data into stored attribute values: owning relations resolved to documentIds,
 * components given ids, media to file ids (checked to exist). `current` is the row being updated (or null).
 */
export async function toStoredAttributes(
  engine: Engine,
  registry: Registry,
  ct: ContentType,
  data: Row,
  current: Row | null,
): Promise<{ values: Row; inverse: InverseWrites }> {
  const values: Row = {};
  const inverse: InverseWrites = [];
  for (const [name, value] of Object.entries(data)) {
    const attribute = ct.attributes[name];
    if (!attribute || attribute.system) continue;
    if (attribute.kind === 'relation') {
      if (attribute.owner) values[name] = await resolveOwningValue(engine, registry, attribute, current?.[name], value);
      else inverse.push({ attribute, payload: value });
    } else {
      values[name] = value;
    }
  }
  const state: PrepareState = { media: [] };
  const prepared = await prepareEmbedded(engine, registry, ct.attributes, values, current, state);
  await checkMediaReferences(engine, state.media);
  return { values: prepared, inverse };
}

/** Strapi's unique rule: no other document of the same locale and status has the value. */
export async function checkUnique(
  engine: Engine,
  ct: ContentType,
  values: Row,
  scope: { documentId: string; locale: string | null; status: 'draft' | 'published' },
): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    const attribute = ct.attributes[name];
    if (!attribute || attribute.kind !== 'scalar' || value === null || value === undefined) continue;
    if (!attribute.unique && attribute.type !== 'uid') continue;
    const clash = await engine.count(ct.collectionName, {
      [name]: value,
      documentId: { $ne: scope.documentId },
      _status: scope.status,
      ...(ct.localized ? { locale: scope.locale } : {}),
    });
    if (clash > 0) throw uniqueError([name], value);
  }
}

/** Default values of every attribute missing from a new row (null for scalars, [] for to-many). */
export function emptyAttributes(ct: ContentType): Row {
  const out: Row = {};
  for (const name of ct.attributeNames) {
    const a = ct.attributes[name]!;
    if (a.kind === 'scalar') out[name] = null;
    else if (a.kind === 'media') out[name] = a.multiple ? [] : null;
    else if (a.kind === 'relation') {
      if (a.owner) out[name] = a.toMany ? [] : null;
    } else if (a.kind === 'component') out[name] = a.repeatable ? [] : null;
    else out[name] = [];
  }
  return out;
}

/**
 * The names of attributes shared by all locales (pluginOptions.i18n.localized: false). Never a relation: Strapi 5
 * counts every relation as localized whatever its pluginOptions (the i18n plugin's `isLocalizedAttribute`, strapi/strapi
 * packages/plugins/i18n/server/src/services/content-types.ts), so neither a new localization nor the sync of
 * non-localized fields (`syncNonLocalizedAttributes`) copies one; media are copied.
 */
export function sharedAttributeNames(ct: ContentType): string[] {
  if (!ct.localized) return [];
  return ct.attributeNames.filter((n) => !ct.attributes[n]!.localized && ct.attributes[n]!.kind !== 'relation');
}
