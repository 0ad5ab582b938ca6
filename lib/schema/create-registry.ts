import { ConfigurationError } from '../errors';
import { suggestion } from '../errors/did-you-mean';
import { buildComponent, buildContentType, type BuildContext } from './build-model';
import type { CustomFieldsOption } from './custom-fields';
import { warnUnknownSchemaKeys } from './schema-keys';
import { uploadFileDefinition } from './system-attributes';
import { normalizeI18n } from './normalize-i18n';
import type { Attribute, Attributes, Component, ContentType, I18nOptions, IncomingRelation, MorphRelationAttribute, Registry } from './types';
import { UPLOAD_FILE_UID } from './types';

export interface RegistryInput {
  contentTypes: readonly unknown[];
  components?: Readonly<Record<string, unknown>>;
  i18n?: I18nOptions;
  /** What each custom field stores (the `customFields` option). */
  customFields?: CustomFieldsOption;
}

/**
 * ` (did you mean "api::category.category"?)` for a relation target that is not a uid: a typo of a uid, or a type
 * named by its singular or plural name, or by `api::name` alone; then the uids there are (the upload file's
 * internal one left out).
 */
function targetSuggestion(target: string, types: ReadonlyMap<string, ContentType>): string {
  const known = [...types.values()].filter((t) => !t.internal);
  const uids = known.map((t) => t.uid);
  const bare = target.replace(/^[a-z]+::/i, '').split('.')[0]!.toLowerCase();
  const named = known.find((t) => [t.singularName, t.pluralName].some((n) => n.toLowerCase() === bare));
  const hint = suggestion(target, uids) || (named ? ` (did you mean "${named.uid}"?)` : '');
  return `${hint}; content types: ${uids.join(', ') || 'none'}`;
}

function checkReferences(owner: string, attrs: Record<string, Attribute> | Readonly<Record<string, Attribute>>, types: Map<string, ContentType>, components: Map<string, Component>, isComponent: boolean): void {
  for (const a of Object.values(attrs)) {
    const where = `${owner}.${a.name}`;
    if (a.kind === 'relation') {
      const target = types.get(a.target);
      if (!target) throw new ConfigurationError('CR_UNKNOWN_TARGET', `${where}: relation to unknown type "${a.target}"${targetSuggestion(a.target, types)}`);
      if (isComponent && (a.inversedBy || a.mappedBy)) {
        throw new ConfigurationError('CR_RELATION_MISMATCH', `${where}: relations in components must be one-way (no inversedBy/mappedBy)`);
      }
      const otherName = a.inversedBy ?? a.mappedBy;
      if (otherName !== undefined) {
        const other = target.attributes[otherName];
        const back = a.inversedBy ? 'mappedBy' : 'inversedBy';
        if (!other || other.kind !== 'relation' || other.target !== owner || (other as unknown as Record<string, unknown>)[back] !== a.name) {
          throw new ConfigurationError('CR_RELATION_MISMATCH', `${where}: ${a.inversedBy ? 'inversedBy' : 'mappedBy'} "${otherName}" has no matching ${back} "${a.name}" on ${a.target}`);
        }
      }
    } else if (a.kind === 'component' && !components.has(a.component)) {
      throw new ConfigurationError('CR_UNKNOWN_COMPONENT', `${where}: unknown component "${a.component}"`);
    } else if (a.kind === 'dynamiczone') {
      if (isComponent) throw new ConfigurationError('CR_INVALID_SCHEMA', `${where}: dynamic zones cannot be nested in components`);
      for (const c of a.components) {
        if (!components.has(c)) throw new ConfigurationError('CR_UNKNOWN_COMPONENT', `${where}: unknown component "${c}"`);
      }
    }
  }
}

/**
 * A `morphOne` / `morphMany` names an existing target, and its `morphBy` a `morphToOne` / `morphToMany` of that
 * target (@strapi/types `MorphReferenceCommonProperties`).
 */
function checkMorphReferences(owner: string, morph: Readonly<Record<string, MorphRelationAttribute>>, types: Map<string, ContentType>): void {
  for (const m of Object.values(morph)) {
    if (m.target === undefined) continue;
    const where = `${owner}.${m.name}`;
    const target = types.get(m.target);
    if (!target) throw new ConfigurationError('CR_UNKNOWN_TARGET', `${where}: relation to unknown type "${m.target}"${targetSuggestion(m.target, types)}`);
    if (m.morphBy === undefined) continue;
    const back = target.morphRelations[m.morphBy];
    if (!back || (back.relation !== 'morphToOne' && back.relation !== 'morphToMany')) {
      throw new ConfigurationError('CR_RELATION_MISMATCH', `${where}: morphBy "${m.morphBy}" is not a morphToOne or morphToMany attribute of ${m.target}`);
    }
  }
}

function incomingRelationsOf(types: ReadonlyMap<string, ContentType>): Map<string, IncomingRelation[]> {
  const incoming = new Map<string, IncomingRelation[]>();
  for (const ct of types.values()) {
    for (const a of Object.values(ct.attributes)) {
      if (a.kind === 'relation' && a.owner) {
        const list = incoming.get(a.target) ?? [];
        list.push({ sourceUid: ct.uid, attribute: a });
        incoming.set(a.target, list);
      }
    }
  }
  return incoming;
}

/**
 * Validates the definitions (schema files, or loaded models as `strapi.contentTypes` holds them) and builds the
 * immutable registry. Throws a ConfigurationError naming the type and attribute at the first mistake; keys that
 * Strapi does not use are accepted and named in one `CR_UNKNOWN_SCHEMA_KEYS` warning (lib/schema/schema-keys.ts).
 *
 * @example
 * const registry = createRegistry({ contentTypes: [articleSchema], components: { 'shared.seo': seo } });
 */
export function createRegistry(input: RegistryInput): Registry {
  const ctx: BuildContext = { customFields: input.customFields, unknownKeys: [] };
  const types = new Map<string, ContentType>();
  const routes = new Map<string, ContentType>();
  const components = new Map<string, Component>();
  for (const [uid, def] of Object.entries(input.components ?? {})) components.set(uid, buildComponent(uid, def, ctx));
  for (const def of [...input.contentTypes, uploadFileDefinition]) {
    const ct = buildContentType(def, ctx);
    if (types.has(ct.uid)) throw new ConfigurationError('CR_DUPLICATE_API_ID', `${ct.uid}: defined twice`);
    types.set(ct.uid, ct);
    if (ct.internal) continue;
    for (const apiId of ct.kind === 'singleType' ? [ct.singularName] : [ct.pluralName, ct.singularName]) {
      const clash = routes.get(apiId);
      if (clash && clash !== ct) {
        throw new ConfigurationError('CR_DUPLICATE_API_ID', `${ct.uid}: API id "${apiId}" is already used by ${clash.uid}`);
      }
    }
    routes.set(ct.kind === 'singleType' ? ct.singularName : ct.pluralName, ct);
    if (ct.kind === 'collectionType') routes.set(`\0${ct.singularName}`, ct);
  }
  const collections = new Map<string, string>();
  const morphByAttributes = new Map<Attributes, Readonly<Record<string, MorphRelationAttribute>>>();
  for (const ct of types.values()) {
    const clash = collections.get(ct.collectionName);
    if (clash) throw new ConfigurationError('CR_DUPLICATE_API_ID', `${ct.uid}: collectionName "${ct.collectionName}" is already used by ${clash}`);
    collections.set(ct.collectionName, ct.uid);
    checkReferences(ct.uid, ct.attributes, types, components, false);
    checkMorphReferences(ct.uid, ct.morphRelations, types);
    morphByAttributes.set(ct.attributes, ct.morphRelations);
  }
  for (const c of components.values()) {
    checkReferences(c.uid, c.attributes, types, components, true);
    checkMorphReferences(c.uid, c.morphRelations, types);
    morphByAttributes.set(c.attributes, c.morphRelations);
  }
  const i18n = normalizeI18n(input.i18n);
  const incoming = incomingRelationsOf(types);
  warnUnknownSchemaKeys(ctx.unknownKeys);
  return Object.freeze({
    contentTypes: types,
    components,
    i18n,
    contentType(uid: string) {
      const ct = types.get(uid);
      if (!ct) throw new Error(`unknown content type ${uid}`);
      return ct;
    },
    component(uid: string) {
      const c = components.get(uid);
      if (!c) throw new Error(`unknown component ${uid}`);
      return c;
    },
    byRoute: (apiId: string) => routes.get(apiId),
    incomingRelations: (uid: string) => incoming.get(uid) ?? [],
    morphRelation(attributes: Attributes, key: string) {
      const morph = morphByAttributes.get(attributes);
      return morph !== undefined && Object.prototype.hasOwnProperty.call(morph, key) ? morph[key] : undefined;
    },
  });
}

export { UPLOAD_FILE_UID };
