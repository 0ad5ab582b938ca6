import type { Attributes, Component, ContentType, Registry } from '../types';
import { morphKeyError } from '../../errors';
import { bodyKeyError } from './body-errors';
import { isPlainObject, ownAttribute } from './model-lookup';
import { checkRelationShape } from './relation-shape';

/** Root keys Strapi refuses as non-writable (`Invalid key createdAt`, details.path = the key). */
const NON_WRITABLE = new Set(['createdAt', 'updatedAt', 'createdBy', 'updatedBy']);
/** Keys accepted in components and dynamic zone items besides their attributes. */
const COMPONENT_ID_KEYS = new Set(['id', 'documentId']);

/** Root keys that are silently dropped: the query decides the locale and the status. */
export function droppedRootKeys(owner: ContentType): ReadonlySet<string> {
  return new Set(owner.localized ? ['publishedAt', 'locale', 'localizations'] : ['publishedAt']);
}

/**
 * Rejects the keys Strapi's Content API refuses in a body, in Strapi's order and reporting only the first:
 * `id`/`documentId` at the root (details without `path`), then non-writable root fields (`createdAt`...,
 * `path` = the key), then unknown keys anywhere in data order (`path: null`). Relation and media values
 * have their shape checked on the way.
 */
export function checkKeys(registry: Registry, owner: ContentType, data: Record<string, unknown>): void {
  for (const key of ['id', 'documentId']) {
    if (Object.prototype.hasOwnProperty.call(data, key)) throw bodyKeyError(key, undefined);
  }
  for (const key of Object.keys(data)) {
    const attr = ownAttribute(owner.attributes, key);
    if (NON_WRITABLE.has(key) || (attr && attr.raw.writable === false)) throw bodyKeyError(key, key);
  }
  walkModel(registry, owner.attributes, data, [], droppedRootKeys(owner));
}

function walkModel(
  registry: Registry,
  attributes: Attributes,
  data: Record<string, unknown>,
  path: readonly string[],
  allowed: ReadonlySet<string>,
): void {
  for (const key of Object.keys(data)) {
    if (allowed.has(key)) continue;
    const attr = ownAttribute(attributes, key);
    if (!attr) {
      const morph = registry.morphRelation(attributes, key);
      throw morph ? morphKeyError(key, morph.relation, [...path, key].join('.'), 'body') : bodyKeyError(key, null);
    }
    const value = data[key];
    const here = [...path, key];
    switch (attr.kind) {
      case 'relation':
      case 'media':
        checkRelationShape(attr, value, here);
        break;
      case 'component': {
        const component = registry.component(attr.component);
        const items = attr.repeatable && Array.isArray(value) ? value : [value];
        items.forEach((item, i) => walkComponent(registry, component, item, attr.repeatable ? [...here, String(i)] : here));
        break;
      }
      case 'dynamiczone':
        if (Array.isArray(value)) {
          value.forEach((item, i) => {
            const uid = isPlainObject(item) ? item.__component : undefined;
            const component = typeof uid === 'string' ? registry.components.get(uid) : undefined;
            // Strapi cannot traverse an item of unknown component: its __component error says it all.
            if (component) walkComponent(registry, component, item, [...here, String(i)], true);
          });
        }
        break;
      default:
        break;
    }
  }
}

function walkComponent(registry: Registry, component: Component, value: unknown, path: readonly string[], inZone = false): void {
  if (!isPlainObject(value)) return;
  const allowed = inZone ? new Set([...COMPONENT_ID_KEYS, '__component']) : COMPONENT_ID_KEYS;
  walkModel(registry, component.attributes, value, path, allowed);
}
