import type { Attribute, Attributes, Registry } from '../types';
import { copyJson, isPlainObject, ownAttribute } from './model-lookup';

/** JSON pointers of the values yup could not cast to a number, with the value as sent. */
export type FailedCasts = Map<string, unknown>;

const NUMBER_TYPES = new Set(['integer', 'float', 'decimal']);

/** yup's number cast: strings lose their whitespace and go through `+`; the rest is NaN. */
function castNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const s = value.replace(/\s/g, '');
    return s === '' ? NaN : +s;
  }
  return NaN;
}

/** yup's boolean cast: `true`/`1` and `false`/`0` (any case) become booleans; anything else stays. */
function castBoolean(value: unknown): unknown {
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  if (/^(true|1)$/i.test(String(value))) return true;
  if (/^(false|0)$/i.test(String(value))) return false;
  return value;
}

function castAttribute(registry: Registry, attr: Attribute, value: unknown, pointer: string, failed: FailedCasts): unknown {
  if (value === null || value === undefined) return value;
  if (attr.kind === 'scalar') {
    if (NUMBER_TYPES.has(attr.type)) {
      const n = castNumber(value);
      if (Number.isFinite(n)) return n;
      failed.set(pointer, value);
      return copyJson(value);
    }
    if (attr.type === 'boolean') return castBoolean(value);
    if (attr.type === 'enumeration' && (typeof value === 'number' || typeof value === 'boolean')) return String(value);
    return copyJson(value);
  }
  if (attr.kind === 'component') {
    const component = registry.component(attr.component);
    const one = (item: unknown, p: string): unknown =>
      isPlainObject(item) ? castModel(registry, component.attributes, item, p, failed) : copyJson(item);
    if (attr.repeatable) return Array.isArray(value) ? value.map((item, i) => one(item, `${pointer}/${i}`)) : copyJson(value);
    return one(value, pointer);
  }
  if (attr.kind === 'dynamiczone' && Array.isArray(value)) {
    return value.map((item, i) => {
      const uid = isPlainObject(item) ? item.__component : undefined;
      const component = typeof uid === 'string' && attr.components.includes(uid) ? registry.components.get(uid) : undefined;
      return component && isPlainObject(item)
        ? castModel(registry, component.attributes, item, `${pointer}/${i}`, failed)
        : copyJson(item);
    });
  }
  return copyJson(value);
}

/**
 * A copy of `data` with values cast as Strapi's yup schemas cast them before testing (numbers from numeric
 * strings, booleans from "true"/"1"...). Values that cannot be cast to a number stay as sent and are
 * recorded in `failed` (yup reports them as NaN "cast from" the value).
 */
export function castModel(
  registry: Registry,
  attributes: Attributes,
  data: Record<string, unknown>,
  pointer: string,
  failed: FailedCasts,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const attr = ownAttribute(attributes, key);
    out[key] = attr ? castAttribute(registry, attr, value, `${pointer}/${key}`, failed) : copyJson(value);
  }
  return out;
}
