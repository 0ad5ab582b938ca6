import type { DocumentEventName } from '../documents';
import type { FileEventName } from '../media';

/** Strapi 5's entry events, in its order (`document-service/events.ts`). */
export const ENTRY_EVENTS: readonly DocumentEventName[] = Object.freeze([
  'entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'entry.draft-discard',
]);

/** Strapi 5's media events (the upload plugin's `ALLOWED_WEBHOOK_EVENTS`). */
export const MEDIA_EVENTS: readonly FileEventName[] = Object.freeze(['media.create', 'media.update', 'media.delete']);

/** An event a webhook can subscribe to: Strapi's names. */
export type WebhookEventName = DocumentEventName | FileEventName;

/** Every event, the default subscription of a webhook. */
export const WEBHOOK_EVENTS: readonly WebhookEventName[] = Object.freeze([...ENTRY_EVENTS, ...MEDIA_EVENTS]);

/** The body of a webhook call and what `router.on` listeners get: `{ event, createdAt, model, uid, entry }`. */
export interface EntryEventPayload {
  readonly event: DocumentEventName;
  /** When the event happened (ISO): the same on every attempt, so a signature and a retry cover the same bytes. */
  readonly createdAt: string;
  /** The content type's singular name (Strapi's `modelName`). */
  readonly model: string;
  readonly uid: string;
  /** The document version as Strapi's eventHub shows it (docs/webhooks.md). */
  readonly entry: Record<string, unknown>;
}

/** The body of a media event: `{ event, createdAt, media }`, the file as the upload routes answer it. */
export interface MediaEventPayload {
  readonly event: FileEventName;
  readonly createdAt: string;
  readonly media: Record<string, unknown>;
}

export type EventPayload = EntryEventPayload | MediaEventPayload;

/**
 * Whether `name` is one of Strapi's webhook events.
 *
 * @example
 * isWebhookEvent('entry.publish'); // true
 */
export function isWebhookEvent(name: unknown): name is WebhookEventName {
  return typeof name === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(name);
}
