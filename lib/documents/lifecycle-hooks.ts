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
