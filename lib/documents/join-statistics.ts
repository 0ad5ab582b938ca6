import type { Engine, Filter } from '../engine/types';
import type { FanOutStatistic } from '../pipeline';

/**
 * How long a row count is used without asking the engine again, in ms. Writes through the same engine object
 * make it stale at once; this bounds how long a write made elsewhere (another app instance on the same MongoDB)
 * goes unseen.
 */
export const JOIN_STATISTICS_TTL_MS = 30_000;

interface Entry {
  /** The count or statistic. */
  readonly count: number;
  /** `engine.stats.write` when the count was asked for: any write since makes it stale. */
  readonly writes: number;
  readonly at: number;
}

const caches = new WeakMap<Engine, Map<string, Entry>>();

/**
 * The rows of `collection` matching `scope` (a join's status scope: `{ _status }` or `{}`), as the engine counted
 * them, kept per engine until the engine writes anything or {@link JOIN_STATISTICS_TTL_MS} pass. It bounds how
 * many rows one row may join into that collection (documents/join-budget). MongoDB can count them from the keys
 * of an index alone, a covered query (https://www.mongodb.com/docs/manual/core/query-optimization/#covered-query):
 * `{ _status }` is the prefix of `list_scope_id`; an empty scope counts `id >= MIN_SAFE_INTEGER` (every stored
 * row's `id` is a positive integer) on the `id` index, where `countDocuments({})` would read every document.
 *
 * @example
 * await scopeCount(engine, 'articles', { _status: 'published' }) // 300
 */
export async function scopeCount(engine: Engine, collection: string, scope: Filter, now: () => number = Date.now): Promise<number> {
  const filter = Object.keys(scope).length > 0 ? scope : { id: { $gte: Number.MIN_SAFE_INTEGER } };
  return kept(engine, `count\u0000${collection}\u0000${JSON.stringify(scope)}`, now, () => engine.count(collection, filter));
}

/**
 * The value of a fan-out statistic (pipeline/compile-fan-out: the most rows one row joins through a relation),
 * kept as {@link scopeCount}'s counts are; undefined, without reading anything more, when its scope holds more
 * rows than `max` (the read's join budget): it reads every row of its scope, which then costs no more than one
 * read may join. 0 for an empty scope.
 *
 * @example
 * await maxFanOut(engine, longestArray('articles', 'categories', { _status: 'published' }), 10_000) // 2
 */
export async function maxFanOut(engine: Engine, statistic: FanOutStatistic, max: number, now: () => number = Date.now): Promise<number | undefined> {
  if ((await scopeCount(engine, statistic.collection, statistic.scope, now)) > max) return undefined;
  return kept(engine, `fanOut\u0000${statistic.collection}\u0000${JSON.stringify(statistic.pipeline)}`, now, async () => {
    const [doc] = await engine.aggregate(statistic.collection, statistic.pipeline, { readOnly: true });
    return typeof doc?.m === 'number' ? doc.m : 0;
  });
}

/** `compute()`, kept per engine and key until the engine writes or the time to live passes. */
async function kept(engine: Engine, key: string, now: () => number, compute: () => Promise<number>): Promise<number> {
  let cache = caches.get(engine);
  if (!cache) caches.set(engine, (cache = new Map()));
  const found = cache.get(key);
  const time = now();
  if (found && found.writes === engine.stats.write && time - found.at < JOIN_STATISTICS_TTL_MS && time >= found.at) return found.count;
  const writes = engine.stats.write;
  const count = await compute();
  cache.set(key, { count, writes, at: time });
  return count;
}
