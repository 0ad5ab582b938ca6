import type { Attribute, ComponentAttribute, ContentType, DynamicZoneAttribute } from '../schema';
import { ApplicationError } from '../errors';
import { isIndexObject, isPlainObject, ownValue } from './as-list';
import { parseBoolean } from './cast-value';
import { parseFields } from './parse-fields';
import { parseFilters } from './parse-filters';
import { invalidKey, invalidValue, type ParseScope } from './parse-scope';
import { parseSort } from './parse-sort';
import { parsePopulatePage, POPULATE_PAGE_KEYS } from './parse-populate-page';
import { unknownKey } from './resolve-attribute';
import { contentTypeTarget, defaultNode, localizationsAttribute, type PopulateTarget } from './populate-star';
import type { PopulateMap, PopulateNode } from './types';

/** Parses a nested `populate` value against a target (parse-populate.ts passes itself here: no import cycle). */
export type ParseNested = (scope: ParseScope, target: PopulateTarget, raw: unknown) => PopulateMap;

type Options = Readonly<Record<string, unknown>>;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const NODE_KEYS: ReadonlySet<string> = new Set(['fields', 'filters', 'sort', 'populate', 'on', 'count']);
const PAGE_KEYS: ReadonlySet<string> = new Set(POPULATE_PAGE_KEYS);
const ADMIN_RELATIONS: ReadonlySet<string> = new Set(['createdBy', 'updatedBy']);

/** `true`/`'*'` -> {}, `false` -> undefined (dropped), object -> its options (only the known keys). */
function readOptions(scope: ParseScope, key: string, value: unknown): Options | undefined {
  if (value === true || value === 'true' || value === '*' || value === null) return {};
  if (value === false || value === 'false') return undefined;
  if (!isPlainObject(value) || isIndexObject(value)) throw invalidValue(scope, key, key, 'expected true, false or an object');
  // Without populate pagination (rest.populatePagination false), its keys are unknown, as in Strapi 5.
  for (const option of Object.keys(value)) if (!NODE_KEYS.has(option) && !(scope.populatePage && PAGE_KEYS.has(option))) throw invalidKey(scope, option, option);
  return value;
}

function refuse(scope: ParseScope, options: Options, keys: readonly string[]): void {
  for (const k of keys) if (options[k] !== undefined) throw invalidKey(scope, k, k);
}

/**
 * A relation, media or `localizations` node under `key` of `parent`: fields, filters, sort, nested populate,
 * count and per-parent pagination (parse-populate-page) on the target type.
 */
function relationNode(scope: ParseScope, parent: PopulateTarget, key: string, attribute: PopulateNode['attribute'], ct: ContentType, options: Options, nested: ParseNested): PopulateNode {
  refuse(scope, options, ['on']);
  const node: Mutable<PopulateNode> = { ...defaultNode(attribute) };
  if (options.fields !== undefined) node.fields = parseFields(scope, ct.attributes, options.fields);
  if (options.sort !== undefined) node.sort = parseSort(scope, ct.attributes, options.sort);
  if (options.populate !== undefined) node.populate = nested(scope, contentTypeTarget(ct), options.populate);
  if (options.filters !== undefined) {
    const filters = parseFilters(scope, ct.attributes, options.filters);
    if (filters) node.filters = filters;
  }
  if (options.count !== undefined) {
    const count = parseBoolean(options.count);
    if (count === undefined) throw invalidValue(scope, 'count', 'count', 'expected true or false');
    node.count = count;
  }
  const multi = attribute.kind === 'localizations' || (attribute.kind === 'media' ? attribute.multiple : attribute.kind === 'relation' && attribute.toMany);
  const parentHasMeta = parent.contentType !== undefined && Object.hasOwn(parent.contentType.attributes, 'meta');
  Object.assign(node, parsePopulatePage(scope, options, { key, multi, inContentType: parent.contentType !== undefined, parentHasMeta, count: node.count === true }));
  return node;
}

function componentNode(scope: ParseScope, attribute: ComponentAttribute, options: Options, nested: ParseNested): PopulateNode {
  refuse(scope, options, ['filters', 'sort', 'on', 'count', ...POPULATE_PAGE_KEYS]);
  const component = scope.registry.component(attribute.component);
  const node: Mutable<PopulateNode> = { ...defaultNode(attribute) };
  if (options.fields !== undefined) node.fields = parseFields(scope, component.attributes, options.fields);
  if (options.populate !== undefined) node.populate = nested(scope, component, options.populate);
  return node;
}

/** One component of a dynamic zone seen as a (repeatable) component attribute. */
function zoneComponent(zone: DynamicZoneAttribute, uid: string): ComponentAttribute {
  const raw = { type: 'component', component: uid, repeatable: true };
  return { name: zone.name, kind: 'component', component: uid, repeatable: true, required: false, private: false, localized: zone.localized, system: false, raw };
}

/**
 * `populate` without `on` applies to every component of the zone: each gets the keys it has. A key that no
 * component has is `Invalid key` (the first component's error is reported).
 */
function zoneEveryComponent(scope: ParseScope, zone: DynamicZoneAttribute, populate: unknown, nested: ParseNested): Record<string, PopulateNode> {
  const on: Record<string, PopulateNode> = {};
  let firstError: unknown;
  for (const uid of zone.components) {
    try {
      on[uid] = componentNode(scope, zoneComponent(zone, uid), { populate }, nested);
    } catch (error) {
      if (!(error instanceof ApplicationError)) throw error;
      firstError ??= error;
      on[uid] = defaultNode(zoneComponent(zone, uid));
    }
  }
  if (firstError !== undefined && zone.components.every((uid) => Object.keys(on[uid]!.populate).length === 0)) throw firstError;
  return on;
}

function dynamicZoneNode(scope: ParseScope, zone: DynamicZoneAttribute, options: Options, nested: ParseNested): PopulateNode {
  refuse(scope, options, ['fields', 'filters', 'sort', 'count', ...POPULATE_PAGE_KEYS]);
  const node: Mutable<PopulateNode> = { ...defaultNode(zone) };
  if (options.on !== undefined) {
    if (options.populate !== undefined) throw invalidKey(scope, 'populate', 'populate');
    if (!isPlainObject(options.on) || isIndexObject(options.on)) throw invalidValue(scope, 'on', 'on', 'expected an object keyed by component');
    const on: Record<string, PopulateNode> = {};
    for (const [uid, value] of Object.entries(options.on)) {
      if (!zone.components.includes(uid)) throw invalidKey(scope, uid, uid);
      const componentOptions = readOptions(scope, uid, value);
      if (componentOptions) on[uid] = componentNode(scope, zoneComponent(zone, uid), componentOptions, nested);
    }
    node.on = on;
  } else if (options.populate !== undefined) {
    node.on = zoneEveryComponent(scope, zone, options.populate, nested);
  }
  return node;
}

function lookup(scope: ParseScope, target: PopulateTarget, key: string): Attribute {
  const attribute = ADMIN_RELATIONS.has(key) ? undefined : ownValue(target.attributes, key);
  if (!attribute && !ADMIN_RELATIONS.has(key)) throw unknownKey(scope, target.attributes, key, key);
  if (!attribute || attribute.private || attribute.kind === 'scalar') throw invalidKey(scope, key, key);
  return attribute;
}

/**
 * Parses what to populate under `key` of `target` (`true`, `false`, or an object of `fields`, `filters`,
 * `sort`, `populate`, `on`, `count`). Returns undefined when the key is dropped (`false`) or its target is a
 * type the caller cannot `find` (silently left out, as Strapi does).
 */
export function parsePopulateNode(scope: ParseScope, target: PopulateTarget, key: string, value: unknown, nested: ParseNested): PopulateNode | undefined {
  const ct = target.contentType;
  if (key === 'localizations' && ct?.localized) {
    const options = readOptions(scope, key, value);
    if (!options || !scope.context.canFind(ct.uid)) return undefined;
    return relationNode(scope, target, key, localizationsAttribute(ct), ct, options, nested);
  }
  const attribute = lookup(scope, target, key);
  const options = readOptions(scope, key, value);
  if (!options) return undefined;
  switch (attribute.kind) {
    case 'relation':
      if (!scope.context.canFind(attribute.target)) return undefined;
      return relationNode(scope, target, key, attribute, scope.registry.contentType(attribute.target), options, nested);
    case 'media':
      return relationNode(scope, target, key, attribute, scope.registry.contentType(attribute.target), options, nested);
    case 'component':
      return componentNode(scope, attribute, options, nested);
    default:
      return dynamicZoneNode(scope, attribute as DynamicZoneAttribute, options, nested);
  }
}
