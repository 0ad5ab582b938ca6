import type { Row } from '../engine';

/** The event given to a lifecycle hook. `data` is the validated body (before*) or what was written (after*). */
export interface LifecycleEvent {
  uid: string;
  documentId?: string;
  locale?: string | null;
  data?: Row;
}

export type LifecycleName =
  | 'beforeCreate' | 'afterCreate' | 'beforeUpdate' | 'afterUpdate'
  | 'beforeDelete' | 'afterDelete' | 'beforePublish' | 'afterPublish';

/**
 * Hooks per content type uid. A `before*` hook may return new data (create/update) or throw an
 * ApplicationError/ValidationError to reject the write.
 *
 * @example
 * lifecycles: { 'api::article.article': { beforeCreate: (e) => ({ ...e.data, slug: slugify(e.data.title) }) } }
 */
export type LifecycleHooks = Readonly<Record<string, Partial<Record<LifecycleName, (event: LifecycleEvent) => unknown>>>>;

/** Runs one hook; for hooks that return an object, it replaces `event.data`. Returns the (new) data. */
export async function runHook(hooks: LifecycleHooks, name: LifecycleName, event: LifecycleEvent): Promise<Row> {
  const hook = hooks[event.uid]?.[name];
  const data = event.data ?? {};
  if (!hook) return data;
  const result = await hook({ ...event, data });
  return result && typeof result === 'object' && !Array.isArray(result) ? (result as Row) : data;
}

/** Strapi's document events (its eventHub names: `packages/core/core/src/services/document-service/events.ts`). */
export type DocumentEventName = 'entry.create' | 'entry.update' | 'entry.delete' | 'entry.publish' | 'entry.unpublish' | 'entry.draft-discard';

/**
 * Where the document service announces its writes as Strapi's events (webhooks, `router.on`): `record` is called
 * inside the write's transaction with the stored row the event is about, after it is written (create, update,
 * publish, draft-discard) or before it is deleted (delete, unpublish), one call per version and locale as Strapi
 * emits them. The recorder keeps what it needs and writes it in the same transaction.
 */
export interface DocumentEvents {
  record(event: DocumentEventName, uid: string, row: Row): void;
}
