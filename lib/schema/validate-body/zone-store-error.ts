import type { ContentType, Registry } from '../types';
import { isPlainObject } from './model-lookup';

/**
 * The whole-entry message Strapi adds after the field errors when a dynamic zone item has no usable
 * `__component` (its relations check cannot even start): `Cannot build relations store from dynamiczone,
 * component identifier is undefined` for a missing one, `Invalid relations` for an unknown one. The first
 * such item, in attribute order, decides. Returns null when every item names a registered component.
 */
export function zoneStoreError(registry: Registry, owner: ContentType, data: Record<string, unknown>): string | null {
  for (const name of owner.attributeNames) {
    const attr = owner.attributes[name];
    const value = data[name];
    if (attr?.kind !== 'dynamiczone' || value === null || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (!isPlainObject(item)) return 'Invalid relations';
      const uid = item.__component;
      if (uid === undefined || uid === null || uid === '' || uid === false || uid === 0) {
        return 'Cannot build relations store from dynamiczone, component identifier is undefined';
      }
      if (typeof uid !== 'string' || !registry.components.has(uid)) return 'Invalid relations';
    }
  }
  return null;
}
