import { AsyncLocalStorage } from 'node:async_hooks';
import { v7 as uuidv7 } from 'uuid';
import type { DocumentEventName, DocumentEvents } from '../documents';
import { DocumentTooLargeError, ReadLimitError, type Engine, type Row } from '../engine';
import type { Logger } from '../errors/logger';
import { toPublicFile, type FileEventName, type FileEvents, type FileRow } from '../media';
import type { Registry } from '../schema';
import { populatedEntry, scalarEntry } from './entry-payload';
import type { EventPayload, WebhookEventName } from './event-names';
import { newDelivery, type DeliveryRow, type Outbox } from './outbox';
import type { StoredWebhook } from './webhook-store';

/** An event recorded during a transaction, turned into its payload at the end of it. */
type Recorded =
  | { readonly event: DocumentEventName; readonly uid: string; readonly row: Row; readonly entry?: Row }
  | { readonly event: FileEventName; readonly media: Row };

export interface RecorderDeps {
  readonly registry: Registry;
  readonly outbox: Outbox;
  readonly logger: Logger;
  readonly clock: () => Date;
  readonly maxBodyBytes: number;
  /** The enabled webhooks subscribed to an event (from the store's cache). */
  subscribers(event: WebhookEventName): readonly StoredWebhook[];
  /** Whether in-process listeners want the event. */
  listening(event: WebhookEventName): boolean;
  /** Called after the transaction committed, with its payloads (in-process listeners, the deliverer's kick). */
  committed(payloads: readonly EventPayload[], deliveries: number): void;
}

const DELETING: ReadonlySet<string> = new Set(['entry.delete', 'entry.unpublish']);

/**
 * Records the events of each transaction and writes them to the outbox in that same transaction: the document
 * service and the media library write through {@link EventRecorder.wrap}'s engine, whose `transaction` collects
 * what `documents.record` / `files.record` are told, then, at the end of the transaction's function (its writes
 * done), reads each entry as Strapi shows it and inserts one delivery per subscribed webhook. On the memory engine
 * that is the same journal record as the change; on MongoDB the same transaction. Nothing is read or written for
 * an event no webhook and no listener wants.
 */
export class EventRecorder {
  private readonly scope = new AsyncLocalStorage<Recorded[]>();

  readonly documents: DocumentEvents = { record: (event, uid, row) => this.add(event, { event, uid, ...this.keep(event, uid, row) }) };
  readonly files: FileEvents = { record: (event, row) => this.add(event, { event, media: toPublicFile(row as FileRow) as unknown as Row }) };

  constructor(private readonly deps: RecorderDeps, private readonly engine: Engine) {}

  /** The engine the services write through: the same engine, whose transactions carry their events. */
  wrap(): Engine {
    const transaction = <T>(fn: () => Promise<T>): Promise<T> => this.transaction(fn);
    return new Proxy(this.engine, {
      get: (target, key) => {
        if (key === 'transaction') return transaction;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  private async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.scope.getStore()) return fn(); // nested: joins the outer transaction, its events go with it
    let flushed: { payloads: EventPayload[]; deliveries: number } | undefined;
    const result = await this.engine.transaction(async () => {
      const recorded: Recorded[] = []; // a retried transaction (MongoDB) starts over
      const value = await this.scope.run(recorded, fn);
      flushed = recorded.length > 0 ? await this.flush(recorded) : undefined;
      return value;
    });
    if (flushed && flushed.payloads.length > 0) this.deps.committed(flushed.payloads, flushed.deliveries);
    return result;
  }

  /** A deleted row is formatted now (it is gone at the end of the transaction); others are read then. */
  private keep(event: DocumentEventName, uid: string, row: Row): { row: Row; entry?: Row } {
    return DELETING.has(event) ? { row, entry: scalarEntry(this.deps.registry, uid, row) } : { row: { id: row.id, _status: row._status, locale: row.locale } };
  }

  private add(event: WebhookEventName, recorded: Recorded): void {
    if (this.deps.subscribers(event).length === 0 && !this.deps.listening(event)) return;
    const store = this.scope.getStore();
    if (store) store.push(recorded);
    else void this.transaction(async () => this.scope.getStore()!.push(recorded)).catch((error: unknown) => this.deps.logger.error(`content-router: the ${event} event could not be stored: ${String(error)}`));
  }

  private async flush(recorded: readonly Recorded[]): Promise<{ payloads: EventPayload[]; deliveries: number }> {
    const createdAt = this.deps.clock().toISOString();
    const now = Date.parse(createdAt);
    const payloads: EventPayload[] = [];
    const rows: DeliveryRow[] = [];
    for (const item of recorded) {
      const payload = await this.payload(item, createdAt);
      if (!payload) continue;
      payloads.push(payload);
      const hooks = this.deps.subscribers(item.event);
      if (hooks.length === 0) continue;
      const body = this.body(payload, item);
      for (const hook of hooks) rows.push(newDelivery(uuidv7(), hook.id, item.event, body, now));
    }
    await this.deps.outbox.insert(rows);
    return { payloads, deliveries: rows.length };
  }

  private async payload(item: Recorded, createdAt: string): Promise<EventPayload | null> {
    if ('media' in item) return Object.freeze({ event: item.event, createdAt, media: item.media });
    const ct = this.deps.registry.contentType(item.uid);
    const entry = item.entry ?? (await this.readEntry(item.uid, item.row));
    if (!entry) return null;
    return Object.freeze({ event: item.event, createdAt, model: ct.singularName, uid: ct.uid, entry });
  }

  /** The populated entry; over a read limit, the row's own fields (logged): a write never fails for its event. */
  private async readEntry(uid: string, row: Row): Promise<Row | null> {
    const ct = this.deps.registry.contentType(uid);
    try {
      return await populatedEntry(this.deps.registry, this.engine, ct, row);
    } catch (error) {
      if (!(error instanceof ReadLimitError || error instanceof DocumentTooLargeError)) throw error;
      this.deps.logger.warn(`content-router: the ${uid} entry ${String(row.id)} of an event is sent without its relations: ${error.message}`);
      const [stored] = await this.engine.find(ct.collectionName, { id: row.id });
      return stored ? scalarEntry(this.deps.registry, uid, stored) : null;
    }
  }

  /** The JSON body; over `maxBodyBytes`, the entry's own fields only, then its ids only (logged). */
  private body(payload: EventPayload, item: Recorded): string {
    const json = JSON.stringify(payload);
    if (Buffer.byteLength(json) <= this.deps.maxBodyBytes || !('entry' in payload) || !('uid' in item)) return json;
    const smaller = [scalarEntry(this.deps.registry, item.uid, payload.entry), { id: payload.entry.id, documentId: payload.entry.documentId }];
    this.deps.logger.warn(`content-router: the ${payload.event} body of ${item.uid} ${String(payload.entry.id)} is over webhooks.maxBodyBytes (${this.deps.maxBodyBytes}): sent without its relations`);
    for (const entry of smaller) {
      const next = JSON.stringify({ ...payload, entry });
      if (Buffer.byteLength(next) <= this.deps.maxBodyBytes) return next;
    }
    return JSON.stringify({ ...payload, entry: smaller[1] });
  }
}
