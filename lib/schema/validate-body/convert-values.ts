import { canonicalBigInteger } from '../big-integer';
import type { Attribute, Attributes, Registry } from '../types';
import { copyJson, isPlainObject, ownAttribute } from './model-lookup';
import { parseDate, parseDateTime, parseTime } from './parse-temporal';

function convertScalar(type: string, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (type) {
    case 'date':
      return parseDate(value);
    case 'time':
      return parseTime(value);
    case 'datetime':
    case 'timestamp':
      return parseDateTime(value);
    case 'biginteger':
      return typeof value === 'number' ? canonicalBigInteger(value) : canonicalBigInteger(String(value));
    default:
      return copyJson(value);
  }
}

function convertAttribute(registry: Registry, attr: Attribute, value: unknown): unknown {
  if (attr.kind === 'scalar') return convertScalar(attr.type, value);
  if (attr.kind === 'component' && value !== null && value !== undefined) {
    const component = registry.component(attr.component);
    const one = (item: unknown): unknown =>
      isPlainObject(item) ? convertModel(registry, component.attributes, item, new Set(['id'])) : item;
    return attr.repeatable && Array.isArray(value) ? value.map(one) : one(value);
  }
  if (attr.kind === 'dynamiczone' && Array.isArray(value)) {
    return value.map((item) => {
      if (!isPlainObject(item) || typeof item.__component !== 'string') return item;
      const component = registry.component(item.__component);
      return convertModel(registry, component.attributes, item, new Set(['id', '__component']));
    });
  }
  return copyJson(value); // relations and media: resolved by the documents service
}

/**
 * The validated data in its stored form (docs/storage-model.md): dates `YYYY-MM-DD`, times `HH:mm:ss.SSS`,
 * date-times ISO strings, bigintegers decimal strings; components and zone items keep the `keep` keys (their
 * `id`, `__component`). Keys that are not attributes (publishedAt, locale...) are dropped. A date that cannot
 * be parsed is a 400 with empty details, as in Strapi.
 */
export function convertModel(
  registry: Registry,
  attributes: Attributes,
  data: Record<string, unknown>,
  keep: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    const attr = ownAttribute(attributes, key);
    if (attr) out[key] = convertAttribute(registry, attr, value);
    else if (keep.has(key)) out[key] = value;
  }
  return out;
}
