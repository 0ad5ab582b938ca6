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
 * Returns the query kept for `owner` (an object standing for the caller's permissions: a query's meaning depends on
 * them) and `key` (the raw query string and anything else parse depends on), parsing it with `parse` the first time.
 */
export type QueryCache = (owner: object, key: string, parse: () => Query) => Query;

/**
 * A cache of parsed queries for one content type: parseQuery is a pure function of the registry, the content
 * type, the raw query string, the action and the caller's `canFind`, so the same query string of the same caller
 * gives the same Query. Entries are kept per owner object (an API token's or the Public role's ability, built
 * once, or the scope the callers of one role share), at most {@link MAX_QUERIES} queries and {@link MAX_CHARS}
 * characters of query strings in all. Only successful parses are kept, and they are deep-frozen: a Query is shared
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
  const order: { owner: object; key: string }[] = [];
  let chars = 0;
  return (owner, key, parse) => {
    if (key.length > MAX_KEY_LENGTH) return parse();
    let queries = byOwner.get(owner);
    const found = queries?.get(key);
    if (found) return found;
    const query = deepFreeze(parse(), 'attribute');
    while (order.length >= MAX_QUERIES || (order.length > 0 && chars + key.length > MAX_CHARS)) {
      const oldest = order.shift()!;
      byOwner.get(oldest.owner)?.delete(oldest.key);
      chars -= oldest.key.length;
    }
    if (!queries) byOwner.set(owner, (queries = new Map()));
    queries.set(key, query);
    order.push({ owner, key });
    chars += key.length;
    return query;
  };
}
