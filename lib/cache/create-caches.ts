import type { Engine } from '../engine';
import type { Logger } from '../errors/logger';
import type { Registry } from '../schema';
import type { CacheTagsOptions } from './cache-tags';
import { createCacheTags, type CacheTags } from './create-cache-tags';
import { ResponseCache, type ResponseCacheOptions } from './response-cache';

/** The router's caches, and the engine that tells them every write: what the other layers are given. */
export interface Caches {
  readonly responseCache: ResponseCache | undefined;
  readonly cacheTags: CacheTags | undefined;
  /** `engine` tracked by the response cache, then by the cache tags (each only when its option is on). */
  readonly engine: Engine;
}

/**
 * The `responseCache` and `cacheTags` options at work (docs/caching.md): each wraps the engine, so that a write
 * drops the cached answers it may change and emits the tags to purge.
 *
 * @example
 * const { engine, responseCache, cacheTags } = createCaches(options, registry, logger, memoryEngine());
 */
export function createCaches(
  options: { responseCache?: ResponseCacheOptions | false; cacheTags?: CacheTagsOptions | false },
  registry: Registry,
  logger: Logger,
  engine: Engine,
): Caches {
  const responseCache = options.responseCache ? new ResponseCache(options.responseCache) : undefined;
  const cacheTags = options.cacheTags ? createCacheTags(options.cacheTags, registry, logger) : undefined;
  const cached = responseCache ? responseCache.track(engine) : engine;
  return { responseCache, cacheTags, engine: cacheTags ? cacheTags.track(cached) : cached };
}
