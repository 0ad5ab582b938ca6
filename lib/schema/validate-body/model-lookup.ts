import type { Attribute, Attributes } from '../types';

/** A plain object: `{}` or a null-prototype object (not an array, a Date or another class instance). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The writable schema attribute named `key` of a model, or undefined (system fields and inherited
 * properties such as `constructor` are never attributes).
 */
export function ownAttribute(attributes: Attributes, key: string): Attribute | undefined {
  if (!Object.prototype.hasOwnProperty.call(attributes, key)) return undefined;
  const attr = attributes[key];
  return attr && !attr.system ? attr : undefined;
}

/** A deep copy of a JSON-like value; other objects (a Date given by a host app) are kept as they are. */
export function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = copyJson(v);
    return out;
  }
  return value;
}
