import type { Query } from './types';

/** How many parsed queries a cache keeps per caller context (the oldest is dropped first). */
const MAX_QUERIES = 256;

/**
 * How many characters of query strings a cache keeps per caller context, all kept queries together (the oldest
 * are dropped first): what a query compiles to grows with its text, and any caller, the Public role included,
 * chooses the text.
 */
const MAX_CHARS = 65_536;

/** Query strings longer than this are parsed every time (a cache must not hold arbitrarily large keys). */
const MAX_KEY_LENGTH = 2048;

/**
 * Returns the query kept for `owner` (an object standing for the caller's permissions: a query's meaning depends on
 * them) and `key` (the raw query string and anything else parse depends on), parsing it with `parse` the first time.
 */
export type QueryCache = (owner: object, key: string, parse: () => Query) => Query;

/**
 * A cache of parsed queries for one content type: parseQuery is a pure function of the registry, the content
 * type, the raw query string, the action and the caller's `canFind`, so the same query string of the same caller
 * gives the same Query. Entries are kept per owner object (a WeakMap: an API token's or the Public role's ability,
 * built once, or the scope the callers of one role share), at most {@link MAX_QUERIES} per owner and
 * {@link MAX_CHARS} characters of query strings. Only successful parses are kept, and they are deep-frozen: a Query is shared by
 * every request with the same query string, and nothing may change it (the compiled pipeline is kept with it,
 * see read-documents).
 *
 * @example
 * const cache = createQueryCache();
 * const query = cache(ability.scope ?? ability, `find?${rawQuery}`, () => parseQuery({ ... }));
 */
export function createQueryCache(): QueryCache {
  const byOwner = new WeakMap<object, { queries: Map<string, Query>; chars: number }>();
  return (owner, key, parse) => {
    if (key.length > MAX_KEY_LENGTH) return parse();
    let kept = byOwner.get(owner);
    if (!kept) byOwner.set(owner, (kept = { queries: new Map(), chars: 0 }));
    const found = kept.queries.get(key);
    if (found) return found;
    const query = deepFreeze(parse(), 'attribute');
    while (kept.queries.size >= MAX_QUERIES || (kept.queries.size > 0 && kept.chars + key.length > MAX_CHARS)) {
      const oldest = kept.queries.keys().next().value!;
      kept.queries.delete(oldest);
      kept.chars -= oldest.length;
    }
    kept.queries.set(key, query);
    kept.chars += key.length;
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
