import type { Logger } from '../errors/logger';
import type { DeliveryRow, Outbox } from './outbox';
import { sendWebhook, type WebhookCall } from './send-webhook';
import type { WebhookSettings } from './webhook-options';
import type { StoredWebhook, WebhookStore } from './webhook-store';

export interface DelivererDeps {
  readonly outbox: Outbox;
  readonly store: WebhookStore;
  readonly settings: WebhookSettings;
  readonly logger: Logger;
  /** This instance's name in leases. */
  readonly owner: string;
  /** Milliseconds since the epoch (tests move it). */
  readonly now: () => number;
  readonly send?: (call: WebhookCall) => Promise<import('./outbox').AttemptOutcome>;
}

/** A claim's lease outlasts the call's timeout by this much (the time to record the outcome). */
const LEASE_MARGIN_MS = 5000;

/** The lease of a call in flight: until when it runs, and how long it is renewed for. */
interface Lease {
  until: number;
  readonly ms: number;
}

/** How long one webhook's failures are summed up in a single log line. */
const LOG_EVERY_MS = 60_000;

/**
 * The wait before attempt `attempts + 1` of a delivery that failed `attempts` times: `backoffMS` doubled per
 * attempt, at most `maxBackoffMS`; null when `maxAttempts` are used up.
 *
 * @example
 * retryDelay(1, { backoffMS: 2000, maxBackoffMS: 3_600_000, maxAttempts: 12 }); // 2000
 * retryDelay(3, { backoffMS: 2000, maxBackoffMS: 3_600_000, maxAttempts: 12 }); // 8000
 */
export function retryDelay(attempts: number, s: Pick<WebhookSettings, 'backoffMS' | 'maxBackoffMS' | 'maxAttempts'>): number | null {
  if (attempts >= s.maxAttempts) return null;
  return Math.min(s.maxBackoffMS, s.backoffMS * 2 ** Math.min(attempts - 1, 40));
}

/**
 * The background deliverer of one instance: it polls the outbox for due deliveries (every `pollMS`, and at once
 * after a local commit), claims each with a lease (so one instance sends it), sends it off the request's path and
 * records the outcome; a failure is due again after {@link retryDelay}. At most `concurrency` calls are in flight
 * (at most half of them, rounded up, to one webhook, so a hanging receiver cannot starve the others) and each is
 * bounded by its timeout: what a receiver does costs bounded memory, the backlog stays in storage.
 *
 * A lease does not run out under a call in flight: the instance renews it (at half its length, on its poll) until
 * the call ends, and checks it before sending (an instance held up between its claim and the call, longer than
 * the lease, sends nothing when another took the delivery over meanwhile). A delivery is sent again only after
 * its call ended (retries) or when its instance stopped renewing: a crash, or an instance held up (stopped, CPU
 * starved) for longer than the lease, whose late answer is then not recorded.
 */
export class Deliverer {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private stopped = true;
  private again = false;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly leases = new Map<string, Lease>();
  private readonly perHook = new Map<string, number>();
  private readonly failures = new Map<string, { at: number; count: number }>();
  private finishedSincePrune = 0;
  private refreshedAt = -Infinity;

  constructor(private readonly deps: DelivererDeps) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.kick();
  }

  /** Looks for due deliveries now (after a commit, or when a call ends). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Stops polling and waits for the calls in flight (each bounded by its timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Resolves when no delivery is in flight. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Looks for due deliveries now and waits for the calls this started (tests drive a clock with it). */
  async tick(): Promise<void> {
    await this.poll();
    await this.idle();
  }

  /**
   * Renews the leases of the calls in flight that are past half their length (poll does it first; tests drive a
   * clock with it). A lease another instance took over meanwhile is reported: that instance may send it again.
   */
  async heartbeat(): Promise<void> {
    const now = this.deps.now();
    const due = new Map<number, string[]>();
    for (const [id, lease] of this.leases) if (lease.until - now < lease.ms / 2) due.set(lease.ms, [...(due.get(lease.ms) ?? []), id]);
    for (const [ms, ids] of due) {
      const renewed = new Set(await this.deps.outbox.renew(ids, this.deps.owner, now, ms));
      for (const id of ids) {
        const lease = this.leases.get(id);
        if (lease && renewed.has(id)) lease.until = now + ms;
        else if (lease) this.lost(id, lease, now);
      }
    }
  }

  private lost(id: string, lease: Lease, now: number): void {
    this.leases.delete(id);
    const late = now >= lease.until ? `its lease ran out ${now - lease.until} ms before this instance could renew it (held up: stopped or starved) and ` : '';
    this.deps.logger.warn(`content-router: webhook delivery ${id}: ${late}it is no longer this instance's (taken over by another, retried or dropped): this instance does not send or record it`);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    // While calls are in flight, the poll comes in time to renew their leases.
    for (const lease of this.leases.values()) ms = Math.min(ms, Math.max(1, Math.floor(lease.ms / 3)));
    this.timer = setTimeout(() => void this.poll(), ms);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = true;
    this.again = false;
    try {
      await this.heartbeat();
      if (this.deps.now() - this.refreshedAt >= this.deps.settings.pollMS) {
        await this.deps.store.refresh();
        this.refreshedAt = this.deps.now();
      }
      await this.claimDue();
    } catch (error) {
      this.deps.logger.warn(`content-router: webhook deliveries could not be read: ${(error as Error).message}`);
    } finally {
      this.running = false;
      if (!this.stopped) this.schedule(this.again ? 0 : this.deps.settings.pollMS);
    }
  }

  private async claimDue(): Promise<void> {
    const { concurrency } = this.deps.settings;
    const free = concurrency - this.inFlight.size;
    if (free <= 0) return;
    const perHookMax = Math.ceil(concurrency / 2);
    const now = this.deps.now();
    const hooks = new Map(this.deps.store.cached().map((h) => [h.id, h]));
    // The rows to claim, grouped by webhook (one lease length each): one claim per webhook, not per delivery.
    const wanted = new Map<string, string[]>();
    let count = 0;
    for (const row of await this.deps.outbox.due(now, free * 4)) {
      if (count >= free) break;
      if (this.inFlight.has(row.id)) continue;
      const hook = hooks.get(row.webhookId);
      if (!hook || !hook.enabled) {
        await this.deps.outbox.drop(row.id, hook ? 'the webhook is disabled' : 'the webhook was removed', now);
        continue;
      }
      const ids = wanted.get(hook.id) ?? [];
      if ((this.perHook.get(hook.id) ?? 0) + ids.length >= perHookMax) continue;
      wanted.set(hook.id, [...ids, row.id]);
      count++;
    }
    for (const [hookId, ids] of wanted) {
      const hook = hooks.get(hookId)!;
      const timeoutMS = hook.timeoutMS ?? this.deps.settings.timeoutMS;
      const leaseMS = this.deps.settings.leaseMS ?? timeoutMS + LEASE_MARGIN_MS;
      const claimed = await this.deps.outbox.claim(ids, this.deps.owner, now, leaseMS);
      for (const row of claimed) this.track(row, hook, timeoutMS, { until: row.leaseUntil, ms: leaseMS });
    }
  }

  private track(row: DeliveryRow, hook: StoredWebhook, timeoutMS: number, lease: Lease): void {
    this.perHook.set(hook.id, (this.perHook.get(hook.id) ?? 0) + 1);
    this.leases.set(row.id, lease);
    const run = this.deliver(row, hook, timeoutMS, lease)
      .catch((error: unknown) => this.deps.logger.warn(`content-router: webhook ${hook.id}: delivery ${row.id} not recorded: ${(error as Error).message}`))
      .finally(() => {
        this.inFlight.delete(row.id);
        this.leases.delete(row.id);
        this.perHook.set(hook.id, (this.perHook.get(hook.id) ?? 1) - 1);
        this.kick();
      });
    this.inFlight.set(row.id, run);
  }

  private async deliver(row: DeliveryRow, hook: StoredWebhook, timeoutMS: number, lease: Lease): Promise<void> {
    const { settings, outbox } = this.deps;
    // Held up between the claim and the call for longer than the lease: send only if the delivery is still ours.
    const before = this.deps.now();
    if (before >= lease.until) {
      if ((await outbox.renew([row.id], this.deps.owner, before, lease.ms)).length === 0) return this.lost(row.id, lease, before);
      lease.until = before + lease.ms;
    }
    const send = this.deps.send ?? ((call: WebhookCall) => sendWebhook(call));
    const headers = { ...settings.defaultHeaders, ...hook.headers };
    const call: WebhookCall = { url: hook.url, id: row.id, event: row.event, body: row.body, headers, secret: hook.secret, timeoutMS, now: this.deps.now() };
    const outcome = await send(call);
    const attempts = row.attempts; // the claim counted this attempt
    const now = this.deps.now();
    const delay = outcome.ok ? null : retryDelay(attempts, settings);
    await outbox.finish(row.id, this.deps.owner, outcome, now, delay === null ? null : now + delay);
    if (!outcome.ok) this.logFailure(hook, row, attempts, outcome.error ?? '', delay === null);
    if (++this.finishedSincePrune >= 100) {
      this.finishedSincePrune = 0;
      await outbox.prune(settings.history);
    }
  }

  /** Failures are logged: a given-up delivery always, failed attempts once a minute per webhook with a count. */
  private logFailure(hook: StoredWebhook, row: DeliveryRow, attempts: number, error: string, gaveUp: boolean): void {
    const now = this.deps.now();
    if (gaveUp) {
      this.deps.logger.error(`content-router: webhook ${hook.id}: ${row.event} delivery ${row.id} given up after ${attempts} attempts: ${error}`);
      return;
    }
    const last = this.failures.get(hook.id);
    if (last && now - last.at < LOG_EVERY_MS) {
      last.count++;
      return;
    }
    const more = last && last.count > 0 ? ` (and ${last.count} more failed attempts since the last report)` : '';
    this.failures.set(hook.id, { at: now, count: 0 });
    this.deps.logger.warn(`content-router: webhook ${hook.id}: ${row.event} delivery ${row.id} attempt ${attempts} failed, retried later: ${error}${more}`);
  }
}
