import { deepFreeze } from '../util/frozen';
import type { Query } from './types';

export { deepFreeze };

/** How many parsed queries a cache (one content type) keeps, all callers together; the oldest is dropped first. */
const MAX_QUERIES = 1024;

/**
 * How many characters of query strings a cache keeps, all callers together (the oldest are dropped first): what a
 * query compiles to grows with its text, and any caller, the Public role included, chooses the text. One bound
 * for all callers, so that many callers (API tokens, roles of `resolve`) cannot multiply it.
 */
const MAX_CHARS = 131_072;

/** Query strings longer than this are parsed every time (a cache must not hold arbitrarily large keys). */
const MAX_KEY_LENGTH = 2048;

/**
 * How many bytes the kept queries may weigh together, with what is kept with each by identity (lib/util/frozen:
 * its compiled pipeline and response writer, the memory engine's plans and compiled stages, the join and filter
 * budgets' plans): estimated as {@link KEPT_BYTES} plus {@link COMPILED_FACTOR} times the query's own bytes
 * ({@link queryBytes}). Calibrated by bench/query-weight.ts (docs/performance.md): 300 distinct query strings of
 * one shape, the heap each added against its queryBytes: a default list 9.7 KB (0.5 KB), `populate=*` 26 to 44 KB
 * (1.9 KB), a 3-level populate 25 to 48 KB (2.4 KB), a findOne `populate=*` 23 to 38.5 KB (2.0 KB), two relation
 * filters and a sort 8.6 to 14 KB (2.1 KB), fields and a filter 13 KB (0.8 KB): the estimate is above each.
 */
const MAX_BYTES = 8 * 1024 * 1024;
const KEPT_BYTES = 4 * 1024;
const COMPILED_FACTOR = 24;
/** A query estimated heavier than this is parsed every time. */
const MAX_QUERY_BYTES = MAX_BYTES / 16;

/**
 * Returns the query kept for `owner` (an object standing for the caller's permissions: a query's meaning depends on
 * them) and `key` (the raw query string and anything else parse depends on), parsing it with `parse` the first time.
 */
export interface QueryCache {
  (owner: object, key: string, parse: () => Query): Query;
  /** The estimated bytes of the queries kept, with what is kept with them (at most {@link MAX_BYTES}). */
  readonly bytes: number;
  /** How many queries are kept. */
  readonly size: number;
}

/**
 * An estimate of the bytes a parsed query holds (its own objects, arrays and strings; not the schema attributes it
 * points to, which are the registry's): the plain-data tree {@link deepFreeze} walks, objects 48 bytes and 16 a key,
 * arrays 32 and 8 an element, strings 24 and 2 a character (strings shared with the query string are counted
 * again: an over-estimate).
 */
export function queryBytes(value: unknown, seen = new Set<object>()): number {
  if (typeof value === 'string') return 24 + 2 * value.length;
  if (value === null || typeof value !== 'object' || seen.has(value)) return 8;
  seen.add(value);
  const proto: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    let bytes = 32 + 8 * value.length;
    for (const item of value as unknown[]) bytes += queryBytes(item, seen);
    return bytes;
  }
  if (proto !== Object.prototype && proto !== null) return 64; // a RegExp, a function: counted as one object
  let bytes = 48;
  for (const [key, inner] of Object.entries(value)) bytes += 16 + (key === 'attribute' ? 0 : queryBytes(inner, seen));
  return bytes;
}

/**
 * A cache of parsed queries for one content type: parseQuery is a pure function of the registry, the content
 * type, the raw query string, the action and the caller's `canFind`, so the same query string of the same caller
 * gives the same Query. Entries are kept per owner object (an API token's or the Public role's ability, built
 * once, or the scope the callers of one role share), at most {@link MAX_QUERIES} queries, {@link MAX_CHARS}
 * characters of query strings and {@link MAX_BYTES} estimated bytes in all. Only successful parses are kept, and they are deep-frozen: a Query is shared
 * by every request with the same query string, and nothing may change it (the compiled pipeline is kept with it,
 * see read-documents and the identity contract of lib/util/frozen).
 *
 * @example
 * const cache = createQueryCache();
 * const query = cache(ability.scope ?? ability, `find?${rawQuery}`, () => parseQuery({ ... }));
 */
export function createQueryCache(): QueryCache {
  const byOwner = new WeakMap<object, Map<string, Query>>();
  /** Every kept entry, oldest first (it holds the owners it names until they are dropped). */
  const order: { owner: object; key: string; bytes: number }[] = [];
  let chars = 0;
  let bytes = 0;
  const cache = (owner: object, key: string, parse: () => Query): Query => {
    if (key.length > MAX_KEY_LENGTH) return parse();
    let queries = byOwner.get(owner);
    const found = queries?.get(key);
    if (found) return found;
    const query = deepFreeze(parse(), 'attribute');
    const weight = KEPT_BYTES + COMPILED_FACTOR * queryBytes(query) + 2 * key.length;
    if (weight > MAX_QUERY_BYTES) return query;
    while (order.length >= MAX_QUERIES || (order.length > 0 && (chars + key.length > MAX_CHARS || bytes + weight > MAX_BYTES))) {
      const oldest = order.shift()!;
      byOwner.get(oldest.owner)?.delete(oldest.key);
      chars -= oldest.key.length;
      bytes -= oldest.bytes;
    }
    if (!queries) byOwner.set(owner, (queries = new Map()));
    queries.set(key, query);
    order.push({ owner, key, bytes: weight });
    chars += key.length;
    bytes += weight;
    return query;
  };
  return Object.defineProperties(cache, { bytes: { get: () => bytes }, size: { get: () => order.length } }) as QueryCache;
}
