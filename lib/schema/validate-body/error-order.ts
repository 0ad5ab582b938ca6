import type { FieldError } from '../../errors';
import type { Attributes, ContentType, Registry } from '../types';
import { isPlainObject } from './model-lookup';

/** Position of each path segment: attribute index in its model, or the array index. */
function orderKey(registry: Registry, owner: ContentType, data: unknown, path: readonly string[]): number[] {
  const key: number[] = [];
  let attributes: Attributes | undefined = owner.attributes;
  let names: readonly string[] = owner.attributeNames;
  let value: unknown = data;
  for (const segment of path) {
    if (/^\d+$/.test(segment)) {
      key.push(Number(segment));
      value = Array.isArray(value) ? value[Number(segment)] : undefined;
      const uid = isPlainObject(value) ? value.__component : undefined;
      const zoneItem = typeof uid === 'string' ? registry.components.get(uid) : undefined;
      if (zoneItem) ({ attributes, attributeNames: names } = zoneItem);
      continue;
    }
    const index = names.indexOf(segment);
    key.push(index === -1 ? names.length : index);
    const attr: Attributes[string] | undefined = attributes?.[segment];
    value = isPlainObject(value) ? value[segment] : undefined;
    if (attr?.kind === 'component') ({ attributes, attributeNames: names } = registry.component(attr.component));
  }
  return key;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Field errors in schema order (attribute declaration order, then array index), as Strapi lists them. */
export function sortFieldErrors(registry: Registry, owner: ContentType, data: unknown, errors: FieldError[]): FieldError[] {
  const keyed = errors.map((e, i) => ({ e, i, k: orderKey(registry, owner, data, e.path) }));
  keyed.sort((x, y) => compare(x.k, y.k) || x.i - y.i);
  return keyed.map((x) => x.e);
}
