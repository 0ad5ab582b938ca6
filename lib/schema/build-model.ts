import { ConfigurationError } from '../errors';
import { ajvErrorMessage, pickAjvError } from '../errors/ajv-message';
import { suggestion } from '../errors/did-you-mean';
import { resolveCustomField, type CustomFieldsOption } from './custom-fields';
import { validateComponentDefinition, validateContentTypeDefinition } from './definition-schema';
import { unwrapLoadedModel } from './loaded-model';
import { isMorphRelation, normalizeAttribute, normalizeMorphRelation } from './normalize-attribute';
import { checkAttributeKeys, checkKeys, SCHEMA_PLACES } from './schema-keys';
import { systemAttributes } from './system-attributes';
import type { Attribute, Component, ContentType, MorphRelationAttribute } from './types';
import { SYSTEM_FIELDS } from './types';

/** What building the models needs besides the definitions, and where it reports the keys Strapi does not use. */
export interface BuildContext {
  readonly customFields?: CustomFieldsOption;
  /** Unknown keys accepted (for the `CR_UNKNOWN_SCHEMA_KEYS` warning). */
  readonly unknownKeys: string[];
}

const RESERVED = new Set<string>([...SYSTEM_FIELDS, 'localizations', 'createdBy', 'updatedBy', '_id', '__proto__', 'constructor', 'prototype']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function ajvMessage(root: string, errors: Parameters<typeof pickAjvError>[0] | null | undefined): string {
  const error = pickAjvError(errors ?? []);
  return error ? ajvErrorMessage(root, error) : `${root} is invalid`;
}

/** A uid attribute's `targetField` names an attribute of the same type or component (Strapi's rule). */
function checkTargetFields(owner: string, attrs: Record<string, Attribute>): void {
  for (const a of Object.values(attrs)) {
    if (a.kind !== 'scalar' || a.targetField === undefined) continue;
    if (!attrs[a.targetField]) {
      throw new ConfigurationError('CR_INVALID_SCHEMA', `${owner}.${a.name}.targetField: "${a.targetField}" is not an attribute of ${owner}${suggestion(a.targetField, Object.keys(attrs))}`);
    }
  }
}

interface BuiltAttributes {
  readonly own: Record<string, Attribute>;
  readonly morph: Record<string, MorphRelationAttribute>;
}

/** `label` names the definition in key errors (`content type article`), `owner` its uid in the others. */
function buildAttributes(label: string, owner: string, rawAttrs: Record<string, unknown>, localized: boolean, ctx: BuildContext): BuiltAttributes {
  const own: Record<string, Attribute> = {};
  const morph: Record<string, MorphRelationAttribute> = {};
  for (const [name, given] of Object.entries(rawAttrs)) {
    if (RESERVED.has(name) || name.startsWith('$') || name.startsWith('_')) {
      throw new ConfigurationError('CR_RESERVED_ATTRIBUTE', `${owner}.${name}: "${name}" is a reserved attribute name`);
    }
    const raw = resolveCustomField(`${owner}.${name}`, given as Record<string, unknown>, ctx.customFields);
    checkAttributeKeys(label, `schema.attributes.${name}`, raw, String(raw.type), ctx.unknownKeys);
    if (isMorphRelation(raw)) morph[name] = normalizeMorphRelation(owner, name, raw);
    else own[name] = normalizeAttribute(owner, name, raw as Record<string, unknown>, localized);
  }
  checkTargetFields(owner, own);
  return { own, morph };
}

/** The keys of `value[key]` when it is an object (ajv has checked the types). */
function checkPlace(label: string, where: string, value: unknown, place: { used: readonly string[]; known: readonly string[] }, ctx: BuildContext): void {
  if (isObject(value)) checkKeys(label, where, value, place.used, place.known, ctx.unknownKeys);
}

/** One content type (a schema file, or a loaded model) as the registry holds it. */
export function buildContentType(given: unknown, ctx: BuildContext): ContentType {
  const def = unwrapLoadedModel(given);
  const singularName = (def as { info?: { singularName?: unknown } } | null)?.info?.singularName;
  const label = `content type ${typeof singularName === 'string' ? singularName : '(unnamed)'}`;
  if (!validateContentTypeDefinition(def)) {
    throw new ConfigurationError('CR_INVALID_SCHEMA', `${label}: ${ajvMessage('schema', validateContentTypeDefinition.errors)}`);
  }
  const d = def as Record<string, unknown> & {
    uid?: string; kind?: 'collectionType' | 'singleType'; collectionName?: string; info: { singularName: string; pluralName: string };
    options?: { draftAndPublish?: boolean }; pluginOptions?: { i18n?: { localized?: unknown } }; attributes: Record<string, unknown>;
  };
  checkPlace(label, 'schema', d, SCHEMA_PLACES.contentType, ctx);
  checkPlace(label, 'schema.info', d.info, SCHEMA_PLACES.contentTypeInfo, ctx);
  checkPlace(label, 'schema.options', d.options, SCHEMA_PLACES.contentTypeOptions, ctx);
  const singular = d.info.singularName;
  const uid = d.uid ?? `api::${singular}.${singular}`;
  if (d.info.pluralName === singular) {
    throw new ConfigurationError('CR_INVALID_SCHEMA', `${uid}.info.pluralName: "${singular}" is also the singularName; Strapi needs two different names (the routes /${singular} and /${singular}/:id would clash)`);
  }
  const localized = d.pluginOptions?.i18n?.localized === true;
  const { own, morph } = buildAttributes(label, uid, d.attributes, localized, ctx);
  return Object.freeze({
    uid,
    kind: d.kind ?? 'collectionType',
    singularName: singular,
    pluralName: d.info.pluralName,
    collectionName: d.collectionName ?? d.info.pluralName.replace(/-/g, '_'),
    draftAndPublish: d.options?.draftAndPublish === true,
    localized,
    attributes: Object.freeze({ ...own, ...systemAttributes(localized) }),
    attributeNames: Object.freeze(Object.keys(own)),
    internal: uid.startsWith('plugin::'),
    morphRelations: Object.freeze(morph),
  });
}

/** One component (a component file keyed by its uid, or a loaded component model). */
export function buildComponent(uid: string, given: unknown, ctx: BuildContext): Component {
  const label = `component ${uid}`;
  if (!/^[a-z0-9-]+\.[a-z0-9-]+$/.test(uid)) {
    throw new ConfigurationError('CR_INVALID_SCHEMA', `${label}: a component uid is "<category>.<name>"`);
  }
  const def = unwrapLoadedModel(given);
  if (!validateComponentDefinition(def)) {
    throw new ConfigurationError('CR_INVALID_SCHEMA', `${label}: ${ajvMessage('schema', validateComponentDefinition.errors)}`);
  }
  const d = def as Record<string, unknown> & { collectionName?: string; info?: unknown; attributes: Record<string, unknown> };
  checkPlace(label, 'schema', d, SCHEMA_PLACES.component, ctx);
  checkPlace(label, 'schema.info', d.info, SCHEMA_PLACES.componentInfo, ctx);
  const { own, morph } = buildAttributes(label, uid, d.attributes, false, ctx);
  return Object.freeze({
    uid,
    category: uid.split('.')[0]!,
    collectionName: d.collectionName ?? `components_${uid.replace(/[.-]/g, '_')}`,
    attributes: Object.freeze({ ...own, id: systemAttributes(false).id! }),
    attributeNames: Object.freeze(Object.keys(own)),
    morphRelations: Object.freeze(morph),
  });
}
