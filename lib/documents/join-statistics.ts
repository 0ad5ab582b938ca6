import type { Engine, Filter } from '../engine/types';

/**
 * How long a row count is used without asking the engine again, in ms. Writes through the same engine object
 * make it stale at once; this bounds how long a write made elsewhere (another app instance on the same MongoDB)
 * goes unseen.
 */
export const JOIN_STATISTICS_TTL_MS = 5000;

interface Entry {
  readonly count: number;
  /** `engine.stats.write` when the count was asked for: any write since makes it stale. */
  readonly writes: number;
  readonly at: number;
}

const caches = new WeakMap<Engine, Map<string, Entry>>();

/**
 * The rows of `collection` matching `scope` (a join's status scope: `{ _status }` or `{}`), as the engine counted
 * them, kept per engine until the engine writes anything or {@link JOIN_STATISTICS_TTL_MS} pass. It bounds how
 * many rows one row may join into that collection (documents/join-budget). The filter adds `id >=
 * MIN_SAFE_INTEGER` (every stored row's `id` is a positive integer) so that MongoDB counts the keys of an index
 * alone: `list_scope_id` `{ _status?, locale?, id }` or `id` hold every field the count reads, a covered query
 * (https://www.mongodb.com/docs/manual/core/query-optimization/#covered-query), where `countDocuments({})`
 * would read every document.
 *
 * @example
 * await scopeCount(engine, 'articles', { _status: 'published' }) // 300
 */
export async function scopeCount(engine: Engine, collection: string, scope: Filter, now: () => number = Date.now): Promise<number> {
  let cache = caches.get(engine);
  if (!cache) caches.set(engine, (cache = new Map()));
  const key = `${collection}\u0000${JSON.stringify(scope)}`;
  const found = cache.get(key);
  const time = now();
  if (found && found.writes === engine.stats.write && time - found.at < JOIN_STATISTICS_TTL_MS && time >= found.at) return found.count;
  const writes = engine.stats.write;
  const count = await engine.count(collection, { ...scope, id: { $gte: Number.MIN_SAFE_INTEGER } });
  cache.set(key, { count, writes, at: time });
  return count;
}
