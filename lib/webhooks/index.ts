export { createWebhooks, type Webhooks, type WebhooksApi, type WebhooksDeps } from './create-webhooks';
export { WEBHOOK_EVENTS, type EntryEventPayload, type EventPayload, type MediaEventPayload, type WebhookEventName } from './event-names';
export type { EventListener } from './event-hub';
export type { Delivery, DeliveryState } from './outbox';
export type { WebhookDefinition, WebhooksOptions } from './webhook-options';
export type { Webhook, WebhookChanges } from './webhook-store';
