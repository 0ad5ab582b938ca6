import type { Engine } from '../engine';
import type { Logger } from '../errors/logger';
import type { Registry } from '../schema';
import { cacheTagSettings, type CacheTagSettings, type CacheTagsOptions } from './cache-tags';
import { PurgeTracker, type CachePurgeEvent, type CachePurgeListener } from './purge-tracker';

/** A router's cache tags: the answers' settings, the engine's write tracking, and the purge listeners. */
export interface CacheTags {
  readonly settings: CacheTagSettings;
  /** The engine whose committed writes emit `cache.purge`. */
  track(engine: Engine): Engine;
  on(listener: CachePurgeListener): () => void;
  off(listener: CachePurgeListener): void;
}

/** Attempts of one purge POST (a network error or a non-2xx answer is tried again after 1 s, then 2 s). */
const ATTEMPTS = 3;
const TIMEOUT_MS = 10_000;

/**
 * The `purgeUrl` listener: POSTs `{ "tags": [...] }` (at most `batch` tags a call) with `headers`, off the write's
 * path; a call that fails three times is logged (`logger.error`) and dropped: a CDN's own expiry (`s-maxage`)
 * bounds what a lost purge leaves stale (docs/caching.md).
 */
function purgePoster(url: string, headers: Readonly<Record<string, string>>, batch: number, logger: Logger): CachePurgeListener {
  const post = async (tags: readonly string[]): Promise<void> => {
    let last = '';
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...headers },
          body: JSON.stringify({ tags }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) return;
        last = `HTTP ${res.status}`;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
      }
      if (attempt < ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** (attempt - 1)).unref());
    }
    logger.error(`content-router: a cache purge of ${tags.length} tags to cacheTags.purgeUrl failed (${last}); the CDN keeps those answers until they expire`);
  };
  return (event: CachePurgeEvent) => {
    for (let i = 0; i < event.tags.length; i += batch) void post(event.tags.slice(i, i + batch));
  };
}

/**
 * Builds the `cacheTags` option's parts (docs/caching.md, "CDN tags and purges").
 *
 * @example
 * const cacheTags = createCacheTags({ header: 'xkey' }, registry, logger);
 * const engine = cacheTags.track(memoryEngine());
 * cacheTags.on(({ tags }) => console.log('purge', tags));
 */
export function createCacheTags(options: CacheTagsOptions, registry: Registry, logger: Logger): CacheTags {
  const settings = cacheTagSettings(options);
  const tracker = new PurgeTracker(registry, settings.prefix, logger);
  if (options.purgeUrl !== undefined) tracker.on(purgePoster(options.purgeUrl, options.purgeHeaders ?? {}, options.purgeBatch ?? 100, logger));
  return {
    settings,
    track: (engine) => tracker.track(engine),
    on: (listener) => tracker.on(listener),
    off: (listener) => tracker.off(listener),
  };
}
