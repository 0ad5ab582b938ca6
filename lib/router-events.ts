import type { CacheTags } from './cache/create-cache-tags';
import type { Webhooks, WebhookEventName } from './webhooks';

/** The event of `router.on` that the `cacheTags` option emits (not one of Strapi's: no webhook subscribes to it). */
const CACHE_PURGE = 'cache.purge';

/** `router.on` and `router.off` (see ContentRouter.on). */
export interface RouterEvents {
  on(event: string, listener: never): () => void;
  off(event: string, listener: never): void;
}

/**
 * `router.on` / `router.off`: Strapi's events (and `'*'`) are the webhooks' event hub's; `'cache.purge'` is the
 * cacheTags option's, and throws without it.
 *
 * @example
 * const { on, off } = createRouterEvents(webhooks, cacheTags);
 */
export function createRouterEvents(webhooks: Pick<Webhooks, 'on' | 'off'>, cacheTags: CacheTags | undefined): RouterEvents {
  function purgeListeners() {
    if (!cacheTags) throw new Error("content-router: 'cache.purge' events need the cacheTags option (docs/caching.md)");
    return cacheTags;
  }
  return {
    on: (event: string, listener: never) => (event === CACHE_PURGE ? purgeListeners().on(listener) : webhooks.on(event as WebhookEventName, listener)),
    off: (event: string, listener: never) => (event === CACHE_PURGE ? purgeListeners().off(listener) : webhooks.off(event as WebhookEventName, listener)),
  };
}
