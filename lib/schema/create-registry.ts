import { ConfigurationError } from '../errors';
import { ajvErrorMessage, pickAjvError } from '../options/ajv-message';
import { suggestion } from '../options/did-you-mean';
import {
  validateComponentDefinition,
  validateContentTypeDefinition,
} from './definition-schema';
import { normalizeAttribute } from './normalize-attribute';
import { systemAttributes, uploadFileDefinition } from './system-attributes';
import { normalizeI18n } from './normalize-i18n';
import type { Attribute, Component, ContentType, I18nOptions, IncomingRelation, Registry } from './types';
import { SYSTEM_FIELDS, UPLOAD_FILE_UID } from './types';


export interface RegistryInput {
  contentTypes: readonly unknown[];
  components?: Readonly<Record<string, unknown>>;
  i18n?: I18nOptions;
}

const RESERVED = new Set<string>([...SYSTEM_FIELDS, 'localizations', 'createdBy', 'updatedBy', '_id', '__proto__', 'constructor', 'prototype']);

function ajvMessage(root: string, errors: Parameters<typeof pickAjvError>[0] | null | undefined): string {
  const error = pickAjvError(errors ?? []);
  return error ? ajvErrorMessage(root, error) : `${root} is invalid`;
}

/** A uid attribute's `targetField` names an attribute of the same type or component (Strapi's rule). */
function checkTargetFields(owner: string, attrs: Record<string, Attribute>): void {
  for (const a of Object.values(attrs)) {
    if (a.kind !== 'scalar' || a.targetField === undefined) continue;
    const target = attrs[a.targetField];
    if (!target) {
      throw new ConfigurationError('CR_INVALID_SCHEMA', `${owner}.${a.name}.targetField: "${a.targetField}" is not an attribute of ${owner}${suggestion(a.targetField, Object.keys(attrs))}`);
    }
  }
}

function buildAttributes(owner: string, rawAttrs: Record<string, unknown>, localized: boolean): Record<string, Attribute> {
  const attrs: Record<string, Attribute> = {};
  for (const [name, raw] of Object.entries(rawAttrs)) {
    if (RESERVED.has(name) || name.startsWith('$') || name.startsWith('_')) {
      throw new ConfigurationError('CR_RESERVED_ATTRIBUTE', `${owner}.${name}: "${name}" is a reserved attribute name`);
    }
    attrs[name] = normalizeAttribute(owner, name, raw as Record<string, unknown>, localized);
  }
  return attrs;
}

function buildContentType(def: unknown): ContentType {
  if (!validateContentTypeDefinition(def)) {
    const label = (def as { info?: { singularName?: string } })?.info?.singularName ?? '(unnamed)';
    throw new ConfigurationError('CR_INVALID_SCHEMA', `content type ${label}: ${ajvMessage('schema', validateContentTypeDefinition.errors)}`);
  }
  const d = def as typeof uploadFileDefinition & { uid?: string; pluginOptions?: { i18n?: { localized?: boolean } } };
  const singular = d.info.singularName;
  const uid = d.uid ?? `api::${singular}.${singular}`;
  if ((d.info.pluralName as string) === singular) {
    throw new ConfigurationError('CR_INVALID_SCHEMA', `${uid}.info.pluralName: "${singular}" is also the singularName; Strapi needs two different names (the routes /${singular} and /${singular}/:id would clash)`);
  }
  const localized = d.pluginOptions?.i18n?.localized === true;
  const own = buildAttributes(uid, d.attributes as Record<string, unknown>, localized);
  checkTargetFields(uid, own);
  return Object.freeze({
    uid,
    kind: d.kind,
    singularName: singular,
    pluralName: d.info.pluralName,
    collectionName: d.collectionName ?? d.info.pluralName.replace(/-/g, '_'),
    draftAndPublish: (d.options as { draftAndPublish?: boolean } | undefined)?.draftAndPublish === true,
    localized,
    attributes: Object.freeze({ ...own, ...systemAttributes(localized) }),
    attributeNames: Object.freeze(Object.keys(own)),
    internal: uid.startsWith('plugin::'),
  });
}

function buildComponent(uid: string, def: unknown): Component {
  if (!/^[a-z0-9-]+\.[a-z0-9-]+$/.test(uid)) {
    throw new ConfigurationError('CR_INVALID_SCHEMA', `component ${uid}: a component uid is "<category>.<name>"`);
  }
  if (!validateComponentDefinition(def)) {
    throw new ConfigurationError('CR_INVALID_SCHEMA', `component ${uid}: ${ajvMessage('schema', validateComponentDefinition.errors)}`);
  }
  const d = def as { collectionName?: string; attributes: Record<string, unknown> };
  const own = buildAttributes(uid, d.attributes, false);
  checkTargetFields(uid, own);
  return Object.freeze({
    uid,
    category: uid.split('.')[0]!,
    collectionName: d.collectionName ?? `components_${uid.replace(/[.-]/g, '_')}`,
    attributes: Object.freeze({ ...own, id: systemAttributes(false).id! }),
    attributeNames: Object.freeze(Object.keys(own)),
  });
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
 * Validates the definitions and builds the immutable registry. Throws a ConfigurationError naming the type
 * and attribute at the first mistake.
 *
 * @example
 * const registry = createRegistry({ contentTypes: [articleSchema], components: { 'shared.seo': seo } });
 */
export function createRegistry(input: RegistryInput): Registry {
  const types = new Map<string, ContentType>();
  const routes = new Map<string, ContentType>();
  const components = new Map<string, Component>();
  for (const [uid, def] of Object.entries(input.components ?? {})) components.set(uid, buildComponent(uid, def));
  for (const def of [...input.contentTypes, uploadFileDefinition]) {
    const ct = buildContentType(def);
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
  for (const ct of types.values()) {
    const clash = collections.get(ct.collectionName);
    if (clash) throw new ConfigurationError('CR_DUPLICATE_API_ID', `${ct.uid}: collectionName "${ct.collectionName}" is already used by ${clash}`);
    collections.set(ct.collectionName, ct.uid);
    checkReferences(ct.uid, ct.attributes, types, components, false);
  }
  for (const c of components.values()) checkReferences(c.uid, c.attributes, types, components, true);
  const i18n = normalizeI18n(input.i18n);
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
  });
}

export { UPLOAD_FILE_UID };
