import { randomUUID } from 'node:crypto';
import type { DocumentEvents } from '../documents';
import type { Engine, IndexSpec } from '../engine';
import type { Logger } from '../errors/logger';
import type { FileEvents } from '../media';
import type { Registry } from '../schema';
import { Deliverer } from './deliverer';
import type { EventPayload, WebhookEventName } from './event-names';
import { EventHub, type EventListener } from './event-hub';
import { EventRecorder } from './event-recorder';
import { DELIVERIES_COLLECTION, DELIVERIES_INDEXES, Outbox, type Delivery, type DeliveryState } from './outbox';
import { webhookSettings, type WebhookDefinition, type WebhooksOptions } from './webhook-options';
import { publicWebhook, WEBHOOKS_COLLECTION, WEBHOOKS_INDEXES, WebhookStore, type Webhook, type WebhookChanges } from './webhook-store';

/**
 * `router.webhooks`: the webhooks stored through the engine (they survive a restart and every instance sees them)
 * and their deliveries. See docs/webhooks.md.
 */
export interface WebhooksApi {
  /** Every webhook, options' and run-time ones (secrets are never answered: `signed` says there is one). */
  list(): Promise<Webhook[]>;
  get(id: string): Promise<Webhook | null>;
  /** Adds a webhook (a 400 ValidationError for a bad definition or a used id). */
  create(definition: WebhookDefinition): Promise<Webhook>;
  /** Changes a webhook (404 NotFoundError without it); `secret: null` removes its secret. */
  update(id: string, changes: WebhookChanges): Promise<Webhook>;
  /** Removes a webhook; its pending deliveries are dropped. False when there was none. */
  remove(id: string): Promise<boolean>;
  /** The latest deliveries first (100 unless `limit`), with their state, attempts and last outcome. */
  deliveries(filter?: { webhookId?: string; state?: DeliveryState; limit?: number }): Promise<Delivery[]>;
  /** Makes a delivery due again at once (a failed one included); false when there is none with that id. */
  retry(deliveryId: string): Promise<boolean>;
  /** Stops this instance's deliverer and waits for its calls in flight (before closing the engine). */
  stop(): Promise<void>;
}

export interface Webhooks {
  /** The engine the document service and the media library write through (their transactions carry events). */
  readonly engine: Engine;
  readonly documents: DocumentEvents;
  readonly files: FileEvents;
  /** Collections and indexes to create at start-up (only with the `webhooks` option). */
  readonly collections: readonly { name: string; indexes: readonly IndexSpec[] }[];
  readonly api: WebhooksApi;
  on(event: WebhookEventName | '*', listener: EventListener): () => void;
  off(event: WebhookEventName | '*', listener: EventListener): void;
  /**
   * Part of the engine's start-up (before requests are served): writes the options' webhooks and starts delivering.
   * Nothing without the `webhooks` option.
   */
  start(): Promise<void>;
}

export interface WebhooksDeps {
  readonly registry: Registry;
  readonly engine: Engine;
  readonly logger: Logger;
  /** Settles when the engine serves (the host API waits for it). */
  readonly ready: () => Promise<void>;
  readonly clock?: () => Date;
}

/**
 * Builds the events machinery of a router: the recorder that writes events in their write's transaction, the
 * outbox, the deliverer, the in-process hub and the host API. Without the `webhooks` option nothing runs in the
 * background until the host API is first used; `router.on` works either way.
 *
 * @example
 * const webhooks = createWebhooks(options.webhooks, { registry, engine, logger, ready: () => readiness.ready });
 */
export function createWebhooks(options: WebhooksOptions | undefined, deps: WebhooksDeps): Webhooks {
  const settings = webhookSettings(options);
  const clock = deps.clock ?? (() => new Date());
  const { logger, registry } = deps;
  const store = new WebhookStore(deps.engine, clock);
  const outbox = new Outbox(deps.engine);
  const hub = new EventHub(logger);
  const deliverer = new Deliverer({ outbox, store, settings, logger, owner: `${process.pid}-${randomUUID()}`, now: () => clock().getTime() });
  const committed = (payloads: readonly EventPayload[], deliveries: number): void => {
    if (deliveries > 0) deliverer.kick();
    if (payloads.some((p) => hub.wants(p.event))) setImmediate(() => payloads.forEach((p) => hub.emit(p)));
  };
  const subscribers = (event: WebhookEventName) => store.cached().filter((h) => h.enabled && h.events.includes(event));
  const recorder = new EventRecorder({ registry, outbox, logger, clock, maxBodyBytes: settings.maxBodyBytes, subscribers, listening: (e) => hub.wants(e), committed }, deps.engine);

  let running = false;
  /** The host API works on an instance without the option too: it waits for the engine, then delivers. */
  const ensure = async (): Promise<void> => {
    await deps.ready();
    if (running) return;
    await store.refresh();
    running = true;
    deliverer.start();
  };
  const kicked = <T>(result: T): T => {
    deliverer.kick();
    return result;
  };
  const api: WebhooksApi = {
    async list() {
      await ensure();
      return (await store.refresh()).map(publicWebhook);
    },
    async get(id) {
      await ensure();
      const hook = (await store.refresh()).find((h) => h.id === id);
      return hook ? publicWebhook(hook) : null;
    },
    create: async (definition) => (await ensure(), kicked(publicWebhook(await store.create(definition)))),
    update: async (id, changes) => (await ensure(), kicked(publicWebhook(await store.update(id, changes)))),
    remove: async (id) => (await ensure(), kicked(await store.remove(id))),
    deliveries: async (filter) => (await ensure(), outbox.list(filter)),
    retry: async (id) => (await ensure(), kicked(await outbox.retry(id, clock().getTime()))),
    stop: () => deliverer.stop(),
  };
  return {
    engine: recorder.wrap(),
    documents: recorder.documents,
    files: recorder.files,
    collections: options === undefined ? [] : [
      { name: WEBHOOKS_COLLECTION, indexes: WEBHOOKS_INDEXES },
      { name: DELIVERIES_COLLECTION, indexes: DELIVERIES_INDEXES },
    ],
    api,
    on: (event, listener) => hub.on(event, listener),
    off: (event, listener) => hub.off(event, listener),
    async start() {
      if (options === undefined) return;
      await store.seed(options.endpoints ?? []);
      running = true;
      deliverer.start();
    },
  };
}
