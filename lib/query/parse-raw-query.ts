import qs from 'qs';

/**
 * qs options, fixed: Strapi's depth (20: deeper brackets stay a literal key), arrays up to 100 items (then an
 * index-keyed object), at most 1000 parameters (the rest are ignored, as Koa/Express do), `a` without `=` is
 * null, and no key that would shadow an Object.prototype member (`__proto__`, `constructor`, `toString`...).
 */
const QS_OPTIONS: qs.IParseOptions = {
  depth: 20,
  arrayLimit: 100,
  parameterLimit: 1000,
  strictNullHandling: true,
  allowPrototypes: false,
  plainObjects: false,
  allowDots: false,
  ignoreQueryPrefix: true,
  charset: 'utf-8',
  interpretNumericEntities: false,
  parseArrays: true,
  duplicates: 'combine',
};

/**
 * Parses the raw query string (without or with a leading '?') into nested plain objects and arrays.
 *
 * @example
 * parseRawQuery('filters[title][$eq]=x'); // { filters: { title: { $eq: 'x' } } }
 */
export function parseRawQuery(raw: string): Record<string, unknown> {
  if (raw === '' || raw === '?') return {}; // what qs answers, without normalizing its options
  return qs.parse(raw, QS_OPTIONS) as Record<string, unknown>;
}
