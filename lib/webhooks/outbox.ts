import type { Engine, IndexSpec, Row } from '../engine';
import type { WebhookEventName } from './event-names';

/**
 * The outbox: one row per (event, webhook), written in the transaction of the change that caused the event, then
 * claimed, sent and marked by a deliverer. Engine-neutral: every state change is one `updateMany` whose filter
 * says what the row must still be, which is atomic on both engines (the memory engine runs one write at a time;
 * MongoDB: "a write operation is atomic on the level of a single document",
 * https://www.mongodb.com/docs/manual/core/write-operations-atomicity/), so two instances never both claim a row.
 */
export const DELIVERIES_COLLECTION = '_webhook_deliveries';

export const DELIVERIES_INDEXES: readonly IndexSpec[] = [
  { name: 'delivery_id', keys: { id: 1 }, unique: true },
  { name: 'delivery_due', keys: { state: 1, nextAttemptAt: 1 } },
  { name: 'delivery_finished', keys: { state: 1, finishedAt: 1 } },
];

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** A stored delivery. Times are milliseconds since the epoch (numbers compare the same way on both engines). */
export interface DeliveryRow {
  /** The delivery id (UUIDv7), sent as `webhook-id` on every attempt: receivers drop duplicates by it. */
  id: string;
  webhookId: string;
  event: WebhookEventName;
  /** The exact JSON body sent (and signed) on every attempt. */
  body: string;
  createdAt: number;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: number;
  /** Until when the instance `leaseOwner` may send it; 0 when nobody holds it. */
  leaseUntil: number;
  leaseOwner: string | null;
  lastStatus: number | null;
  lastError: string | null;
  finishedAt: number | null;
}

/** A delivery as `router.webhooks.deliveries()` lists it. */
export interface Delivery {
  readonly id: string;
  readonly webhookId: string;
  readonly event: WebhookEventName;
  readonly state: DeliveryState;
  readonly attempts: number;
  readonly createdAt: string;
  /** When the next attempt is due (pending deliveries). */
  readonly nextAttemptAt: string | null;
  readonly finishedAt: string | null;
  /** The HTTP status of the last attempt (null: no answer, see `lastError`). */
  readonly lastStatus: number | null;
  readonly lastError: string | null;
}

/** A new pending delivery, due at once. */
export function newDelivery(id: string, webhookId: string, event: WebhookEventName, body: string, now: number): DeliveryRow {
  return { id, webhookId, event, body, createdAt: now, state: 'pending', attempts: 0, nextAttemptAt: now, leaseUntil: 0, leaseOwner: null, lastStatus: null, lastError: null, finishedAt: null };
}

const iso = (ms: unknown): string | null => (typeof ms === 'number' ? new Date(ms).toISOString() : null);

function toDelivery(row: Row): Delivery {
  return Object.freeze({
    id: String(row.id),
    webhookId: String(row.webhookId),
    event: row.event as WebhookEventName,
    state: row.state as DeliveryState,
    attempts: Number(row.attempts),
    createdAt: iso(row.createdAt)!,
    nextAttemptAt: row.state === 'pending' ? iso(row.nextAttemptAt) : null,
    finishedAt: iso(row.finishedAt),
    lastStatus: typeof row.lastStatus === 'number' ? row.lastStatus : null,
    lastError: typeof row.lastError === 'string' ? row.lastError : null,
  });
}

/** What an attempt came to. */
export interface AttemptOutcome {
  readonly ok: boolean;
  readonly status: number | null;
  readonly error: string | null;
}

/**
 * The outbox's operations on an engine (the raw one: deliveries are written outside any content transaction).
 *
 * @example
 * const outbox = new Outbox(engine);
 * if (await outbox.claim(row.id, 'instance-1', Date.now(), 40_000)) { ... }
 */
export class Outbox {
  constructor(private readonly engine: Engine) {}

  async insert(rows: readonly DeliveryRow[]): Promise<void> {
    if (rows.length) await this.engine.insertMany(DELIVERIES_COLLECTION, rows as unknown as Row[]);
  }

  /** Pending deliveries due at `now` and not held by a live lease, oldest due first. */
  async due(now: number, limit: number): Promise<DeliveryRow[]> {
    const filter = { state: 'pending', nextAttemptAt: { $lte: now }, leaseUntil: { $lte: now } };
    return (await this.engine.find(DELIVERIES_COLLECTION, filter, { sort: { nextAttemptAt: 1 }, limit })) as unknown as DeliveryRow[];
  }

  /**
   * Takes the due deliveries of `ids` for `owner` until `now + leaseMS`, counting the attempt, and answers those it
   * got (with the attempt counted): each row is claimed by one instance, the others got it or it is no longer due.
   */
  async claim(ids: readonly string[], owner: string, now: number, leaseMS: number): Promise<DeliveryRow[]> {
    const until = now + leaseMS;
    const due = { id: { $in: ids }, state: 'pending', nextAttemptAt: { $lte: now }, leaseUntil: { $lte: now } };
    if ((await this.engine.updateMany(DELIVERIES_COLLECTION, due, { $set: { leaseOwner: owner, leaseUntil: until }, $inc: { attempts: 1 } })) === 0) return [];
    const mine = { id: { $in: ids }, state: 'pending', leaseOwner: owner, leaseUntil: until };
    return (await this.engine.find(DELIVERIES_COLLECTION, mine, { sort: { nextAttemptAt: 1 } })) as unknown as DeliveryRow[];
  }

  /**
   * Extends the leases `owner` still holds on the pending deliveries of `ids` to `now + leaseMS` (a lease that ran
   * out is extended too while nobody else took the delivery), and answers the ids it extended: a delivery whose call
   * is in flight stays its instance's however long the call takes.
   */
  async renew(ids: readonly string[], owner: string, now: number, leaseMS: number): Promise<string[]> {
    if (ids.length === 0) return [];
    const until = now + leaseMS;
    await this.engine.updateMany(DELIVERIES_COLLECTION, { id: { $in: ids }, state: 'pending', leaseOwner: owner }, { $set: { leaseUntil: until } });
    const held = await this.engine.find(DELIVERIES_COLLECTION, { id: { $in: ids }, state: 'pending', leaseOwner: owner, leaseUntil: until }, { projection: { id: 1 } });
    return held.map((row) => String(row.id));
  }

  /**
   * Records an attempt of a delivery `owner` still holds: delivered, failed for good (`retryAt` null) or due again
   * at `retryAt`. False when the lease was lost meanwhile (another instance took the delivery over).
   */
  async finish(id: string, owner: string, outcome: AttemptOutcome, now: number, retryAt: number | null): Promise<boolean> {
    const result = { lastStatus: outcome.status, lastError: outcome.error, leaseOwner: null, leaseUntil: 0 };
    const set = outcome.ok
      ? { ...result, state: 'delivered', finishedAt: now }
      : retryAt === null
        ? { ...result, state: 'failed', finishedAt: now }
        : { ...result, nextAttemptAt: retryAt };
    return (await this.engine.updateMany(DELIVERIES_COLLECTION, { id, state: 'pending', leaseOwner: owner }, { $set: set })) === 1;
  }

  /** Gives up a pending delivery that cannot be sent (its webhook removed or disabled), whoever holds it. */
  async drop(id: string, reason: string, now: number): Promise<void> {
    await this.engine.updateMany(DELIVERIES_COLLECTION, { id, state: 'pending' }, { $set: { state: 'failed', lastError: reason, finishedAt: now, leaseOwner: null, leaseUntil: 0 } });
  }

  /** Makes a finished (or pending) delivery due again at once, with its attempts counted from zero. */
  async retry(id: string, now: number): Promise<boolean> {
    const set = { state: 'pending', attempts: 0, nextAttemptAt: now, leaseUntil: 0, leaseOwner: null, finishedAt: null };
    return (await this.engine.updateMany(DELIVERIES_COLLECTION, { id }, { $set: set })) === 1;
  }

  /** The most recent deliveries first (by creation), optionally of one webhook or state. */
  async list(filter: { webhookId?: string; state?: DeliveryState; limit?: number } = {}): Promise<Delivery[]> {
    const where: Row = {};
    if (filter.webhookId !== undefined) where.webhookId = filter.webhookId;
    if (filter.state !== undefined) where.state = filter.state;
    const rows = await this.engine.find(DELIVERIES_COLLECTION, where, { sort: { createdAt: -1, id: -1 }, limit: filter.limit ?? 100, projection: { body: 0 } });
    return rows.map(toDelivery);
  }

  /** Keeps the `keep` most recently finished deliveries and deletes the older ones. Returns how many went. */
  async prune(keep: number): Promise<number> {
    const finished = { state: { $in: ['delivered', 'failed'] } };
    const [edge] = await this.engine.find(DELIVERIES_COLLECTION, finished, { sort: { finishedAt: -1 }, skip: keep, limit: 1, projection: { finishedAt: 1 } });
    if (!edge) return 0;
    return this.engine.deleteMany(DELIVERIES_COLLECTION, { ...finished, finishedAt: { $lte: edge.finishedAt } });
  }
}
