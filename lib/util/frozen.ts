/**
 * The read path's identity contract, in one place: an object this code froze is never changed again, so what is
 * computed from it may be kept with the object itself and found by identity (a WeakMap, dropped with the object).
 * - query/query-cache deep-freezes the parsed Query it shares between the requests of one query string;
 * - documents/read-documents keeps, per frozen Query, a CompiledRead: its pipeline (deep-frozen in turn), its
 *   response writer (format/compile-document-json, via format/writer-cache) and its join count plan;
 * - engine/memory/execution/planner keeps what it compiled from each frozen stage object and pipeline;
 * - format/writer-cache keeps the writer of a frozen selection without computing its key.
 * A value that is not frozen (a Query built by host code, which may change it) is computed every time.
 * `Object.isFrozen` is the test: a top-level frozen object is taken as frozen all the way down, which holds for
 * everything {@link deepFreeze} froze (and is the caller's promise for anything else it freezes).
 *
 * @example
 * const pipelines = createIdentityCache<Query, Pipeline>();
 * const pipeline = pipelines.get(query, () => deepFreeze(compileFind(registry, ct, query)));
 */
export interface IdentityCache<K extends object, V> {
  /**
   * The value kept for `key` if it is frozen and `valid` accepts the kept value (it was computed in the same
   * context: registry, content type...), else `make()`, kept when `key` is frozen.
   */
  get(key: K, make: () => V, valid?: (kept: V) => boolean): V;
}

/** Whether `value` may be cached by identity (see {@link IdentityCache}). */
export function isFrozen(value: object): boolean {
  return Object.isFrozen(value);
}

/** A new, empty {@link IdentityCache}. */
export function createIdentityCache<K extends object, V>(): IdentityCache<K, V> {
  const kept = new WeakMap<K, V>();
  return {
    get(key, make, valid) {
      if (!Object.isFrozen(key)) return make();
      const found = kept.get(key);
      if (found !== undefined && (!valid || valid(found))) return found;
      const value = make();
      kept.set(key, value);
      return value;
    },
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
