import type { Logger } from '../errors/logger';
import type { EventPayload, WebhookEventName } from './event-names';

/** A listener of `router.on`: the payload a webhook gets as its body. A returned promise is awaited for its errors only. */
export type EventListener = (payload: EventPayload) => unknown;

/**
 * In-process subscribers (`router.on(event, fn)`, like Strapi's `strapi.eventHub.on`): called after the write's
 * transaction commits, off the request's path, with the same payloads as the webhooks; `'*'` gets every event.
 * A throwing or rejecting listener is logged, never fatal. Events of other instances are not seen here.
 */
export class EventHub {
  private readonly listeners = new Map<string, Set<EventListener>>();

  constructor(private readonly logger: Logger) {}

  on(event: WebhookEventName | '*', listener: EventListener): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => this.off(event, listener);
  }

  off(event: WebhookEventName | '*', listener: EventListener): void {
    this.listeners.get(event)?.delete(listener);
  }

  /** Whether any listener would get `event`. */
  wants(event: WebhookEventName): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0 || (this.listeners.get('*')?.size ?? 0) > 0;
  }

  emit(payload: EventPayload): void {
    for (const listener of [...(this.listeners.get(payload.event) ?? []), ...(this.listeners.get('*') ?? [])]) {
      try {
        Promise.resolve(listener(payload)).catch((error: unknown) => this.report(payload, error));
      } catch (error) {
        this.report(payload, error);
      }
    }
  }

  private report(payload: EventPayload, error: unknown): void {
    this.logger.error(`content-router: a ${payload.event} listener failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
}
