import type { Query, QueryContext } from './types';

/** How many parsed queries a cache keeps per caller context (the oldest is dropped first). */
const MAX_QUERIES = 256;

/** Query strings longer than this are parsed every time (a cache must not hold arbitrarily large keys). */
const MAX_KEY_LENGTH = 2048;

/** Returns the query parsed for `context` and `key` (the raw query string and anything else parse depends on). */
export type QueryCache = (context: QueryContext, key: string, parse: () => Query) => Query;

/**
 * A cache of parsed queries for one content type: parseQuery is a pure function of the registry, the content
 * type, the raw query string, the action and the caller's `canFind`, so the same query string of the same caller
 * (an API token's or the Public role's context, built once) gives the same Query. Entries are kept per context
 * object (a WeakMap: contexts built per request, by `resolve` or for draft reads, are simply not shared), at most
 * {@link MAX_QUERIES} per context. Only successful parses are kept, and they are deep-frozen: a Query is shared by
 * every request with the same query string, and nothing may change it (the compiled pipeline is kept with it,
 * see read-documents).
 *
 * @example
 * const cache = createQueryCache();
 * const query = cache(ability, `find?${rawQuery}`, () => parseQuery({ ... }));
 */
export function createQueryCache(): QueryCache {
  const byContext = new WeakMap<QueryContext, Map<string, Query>>();
  return (context, key, parse) => {
    if (key.length > MAX_KEY_LENGTH) return parse();
    let queries = byContext.get(context);
    if (!queries) byContext.set(context, (queries = new Map()));
    const found = queries.get(key);
    if (found) return found;
    const query = deepFreeze(parse(), 'attribute');
    if (queries.size >= MAX_QUERIES) queries.delete(queries.keys().next().value!);
    queries.set(key, query);
    return query;
  };
}

/**
 * Freezes `value` and the plain objects and arrays it holds, all the way down (not class instances such as
 * RegExps, nor what is under a key named `skipKey`: a Query's schema attributes belong to the registry).
 */
export function deepFreeze<T>(value: T, skipKey?: string): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) {
    if (key !== skipKey) deepFreeze((value as Record<string, unknown>)[key], skipKey);
  }
  return value;
}
