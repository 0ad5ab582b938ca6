/** Runs async sections one at a time per key. */
export type KeyedLock = <T>(key: string, section: () => Promise<T>) => Promise<T>;

/**
 * An in-process lock per key: sections with the same key run one after the other (in arrival order), others
 * run freely. Used for a single type's "find the document, else create it", which two concurrent PUTs would
 * otherwise both see as missing (two documents). It does not span processes: see docs/rest-api.md.
 *
 * @example
 * const lock = createKeyedLock();
 * await lock('api::global.global', async () => { ... });
 */
export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(key: string, section: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(section, section);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
