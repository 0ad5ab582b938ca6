import { memoryEngine, type Engine } from '../../../lib';
import type { Logger } from '../../../lib/errors/logger';
import { Deliverer, retryDelay } from '../../../lib/webhooks/deliverer';
import { DELIVERIES_COLLECTION, newDelivery, Outbox, type AttemptOutcome } from '../../../lib/webhooks/outbox';
import type { WebhookCall } from '../../../lib/webhooks/send-webhook';
import { webhookSettings } from '../../../lib/webhooks/webhook-options';
import { WebhookStore } from '../../../lib/webhooks/webhook-store';

describe('retryDelay: exponential backoff with a cap and a limit', () => {
  const s = { backoffMS: 2000, maxBackoffMS: 3_600_000, maxAttempts: 12 };
  it.each([
    [1, 2000],
    [2, 4000],
    [3, 8000],
    [11, 2_048_000],
  ])('after %i failed attempts waits %i ms', (attempts, ms) => expect(retryDelay(attempts, s)).toBe(ms));
  it('caps the wait', () => expect(retryDelay(11, { ...s, maxBackoffMS: 60_000 })).toBe(60_000));
  it('gives up after maxAttempts', () => expect(retryDelay(12, s)).toBeNull());
  it('twelve attempts span about 68 minutes by default', () => {
    let total = 0;
    for (let a = 1; a < 12; a++) total += retryDelay(a, s)!;
    expect(total).toBe(4_094_000);
  });
});

/** A clock the test moves; deliverers and rows read it. */
function fakeClock(start = Date.parse('2026-01-01T00:00:00.000Z')) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

const logs: string[] = [];
const logger: Logger = { info: () => undefined, warn: (m) => void logs.push(`warn ${m}`), error: (m) => void logs.push(`error ${m}`) };

interface Setup {
  engine: Engine;
  outbox: Outbox;
  store: WebhookStore;
  clock: ReturnType<typeof fakeClock>;
}

async function setup(): Promise<Setup> {
  const engine = memoryEngine({ ephemeral: true });
  const clock = fakeClock();
  const store = new WebhookStore(engine, () => new Date(clock.now()));
  await store.seed([{ id: 'hook', url: 'http://127.0.0.1:9/hook' }]);
  const outbox = new Outbox(engine);
  await outbox.insert([newDelivery('d1', 'hook', 'entry.create', '{"event":"entry.create"}', clock.now())]);
  return { engine, outbox, store, clock };
}

function deliverer(s: Setup, owner: string, send: (call: WebhookCall) => Promise<AttemptOutcome>, settings = {}): Deliverer {
  return new Deliverer({ outbox: s.outbox, store: s.store, settings: webhookSettings({ pollMS: 3_600_000, backoffMS: 1000, maxAttempts: 3, ...settings }), logger, owner, now: s.clock.now, send });
}

/** Lets the deliverer look for due rows and finish what it started. */
async function round(d: Deliverer): Promise<void> {
  await d.tick();
}

async function row(s: Setup): Promise<Record<string, unknown>> {
  const [found] = await s.engine.find(DELIVERIES_COLLECTION, { id: 'd1' });
  return found!;
}

afterEach(() => void (logs.length = 0));

describe('Deliverer', () => {
  it('retries a failed call after the backoff, with the same delivery id and body, until it succeeds', async () => {
    const s = await setup();
    const calls: WebhookCall[] = [];
    const answers: AttemptOutcome[] = [{ ok: false, status: 500, error: 'HTTP 500' }, { ok: false, status: null, error: 'no answer within 10000 ms' }, { ok: true, status: 204, error: null }];
    const d = deliverer(s, 'a', async (call) => (calls.push(call), answers.shift()!));
    d.start();
    await round(d);
    expect(await row(s)).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500, nextAttemptAt: s.clock.now() + 1000 });
    await round(d); // not due yet: nothing sent
    expect(calls).toHaveLength(1);
    s.clock.advance(1000);
    await round(d);
    expect(await row(s)).toMatchObject({ state: 'pending', attempts: 2, lastStatus: null, lastError: 'no answer within 10000 ms', nextAttemptAt: s.clock.now() + 2000 });
    s.clock.advance(2000);
    await round(d);
    expect(await row(s)).toMatchObject({ state: 'delivered', attempts: 3, lastStatus: 204, lastError: null, finishedAt: s.clock.now() });
    expect(new Set(calls.map((c) => `${c.id} ${c.body}`))).toEqual(new Set(['d1 {"event":"entry.create"}']));
    expect(logs).toEqual([expect.stringContaining('attempt 1 failed, retried later: HTTP 500')]); // one report a minute per webhook
    await d.stop();
  });

  it('gives a delivery up after maxAttempts and logs it', async () => {
    const s = await setup();
    const d = deliverer(s, 'a', async () => ({ ok: false, status: 503, error: 'HTTP 503' }), { maxAttempts: 2 });
    d.start();
    await round(d);
    s.clock.advance(1000);
    await round(d);
    expect(await row(s)).toMatchObject({ state: 'failed', attempts: 2, lastStatus: 503 });
    expect(logs.at(-1)).toMatch(/^error .*delivery d1 given up after 2 attempts: HTTP 503/);
    expect(await s.outbox.list()).toEqual([expect.objectContaining({ id: 'd1', state: 'failed', attempts: 2, nextAttemptAt: null })]);
    await d.stop();
  });

  it('two deliverers on one engine: a delivery is claimed and sent once', async () => {
    const s = await setup();
    await s.outbox.insert(Array.from({ length: 20 }, (_, i) => newDelivery(`e${i}`, 'hook', 'entry.update', '{}', s.clock.now())));
    const sent: string[] = [];
    const send = async (call: WebhookCall) => (sent.push(call.id), { ok: true, status: 200, error: null });
    const a = deliverer(s, 'a', send, { concurrency: 4 });
    const b = deliverer(s, 'b', send, { concurrency: 4 });
    a.start();
    b.start();
    for (let i = 0; i < 100 && sent.length < 21; i++) await Promise.all([round(a), round(b)]);
    await Promise.all([round(a), round(b)]); // one more: nothing left to send twice
    expect(sent.sort()).toEqual(['d1', ...Array.from({ length: 20 }, (_, i) => `e${i}`)].sort());
    await Promise.all([a.stop(), b.stop()]);
  });

  it('a delivery whose instance died is taken over once its lease has run out', async () => {
    const s = await setup();
    expect(await s.outbox.claim(['d1'], 'dead', s.clock.now(), 5000)).toEqual([expect.objectContaining({ id: 'd1', attempts: 1 })]);
    expect(await s.outbox.claim(['d1'], 'other', s.clock.now(), 5000)).toEqual([]);
    const sent: string[] = [];
    const d = deliverer(s, 'alive', async (call) => (sent.push(call.id), { ok: true, status: 200, error: null }));
    d.start();
    await round(d);
    expect(sent).toEqual([]); // the lease holds
    s.clock.advance(5000);
    await round(d);
    expect(sent).toEqual(['d1']);
    expect(await row(s)).toMatchObject({ state: 'delivered', attempts: 2 });
    // The dead instance's late answer is not recorded: it no longer holds the lease.
    expect(await s.outbox.finish('d1', 'dead', { ok: false, status: 500, error: 'late' }, s.clock.now(), null)).toBe(false);
    await d.stop();
  });

  it('drops the deliveries of a removed or disabled webhook', async () => {
    const s = await setup();
    await s.store.update('hook', { enabled: false });
    const d = deliverer(s, 'a', async () => ({ ok: true, status: 200, error: null }));
    d.start();
    await round(d);
    expect(await row(s)).toMatchObject({ state: 'failed', lastError: 'the webhook is disabled', attempts: 0 });
    await d.stop();
  });
});

/** A call that stays in flight until the test answers it. */
function heldCall() {
  const calls: WebhookCall[] = [];
  let answer!: (outcome: AttemptOutcome) => void;
  let sent!: () => void;
  const first = new Promise<void>((resolve) => (sent = resolve));
  const send = (call: WebhookCall) => {
    calls.push(call);
    sent();
    return new Promise<AttemptOutcome>((resolve) => (answer = resolve));
  };
  return { calls, send, first, answer: (outcome: AttemptOutcome) => answer(outcome) };
}

describe('Deliverer: a call in flight keeps its lease (issue 30: extra calls on a loaded machine)', () => {
  it('one instance never sends a delivery again while its call is in flight, however far the clock jumps', async () => {
    const s = await setup();
    const held = heldCall();
    const a = deliverer(s, 'a', held.send, { leaseMS: 3000 });
    a.start();
    await held.first;
    // The instance was held up (stopped, starved) far past its lease and the call's timeout, then polls again.
    for (const jump of [2000, 5000, 60_000]) {
      s.clock.advance(jump);
      a.kick();
      await a.heartbeat();
    }
    expect(held.calls).toHaveLength(1);
    expect(await row(s)).toMatchObject({ state: 'pending', attempts: 1, leaseOwner: 'a', leaseUntil: s.clock.now() + 3000 });
    held.answer({ ok: true, status: 200, error: null });
    await a.idle();
    expect(await row(s)).toMatchObject({ state: 'delivered', attempts: 1 });
    await a.stop();
  });

  it('another instance does not take over a delivery whose call outlasts the lease while its instance renews it', async () => {
    const s = await setup();
    const held = heldCall();
    const a = deliverer(s, 'a', held.send, { leaseMS: 3000 });
    const sentByB: string[] = [];
    const b = deliverer(s, 'b', async (call) => (sentByB.push(call.id), { ok: true, status: 200, error: null }), { leaseMS: 3000 });
    a.start();
    b.start();
    await held.first;
    for (let i = 0; i < 5; i++) {
      s.clock.advance(2000); // 10 s in all: more than three leases
      await a.heartbeat();
      await b.tick();
    }
    expect(sentByB).toEqual([]);
    held.answer({ ok: true, status: 200, error: null });
    await a.idle();
    expect(await row(s)).toMatchObject({ state: 'delivered', attempts: 1 });
    await Promise.all([a.stop(), b.stop()]);
  });

  it('an instance held up between its claim and its call for longer than the lease does not send what another took over', async () => {
    const s = await setup();
    const sent: string[] = [];
    const send = (who: string) => async (call: WebhookCall) => (sent.push(`${who} ${call.id}`), { ok: true, status: 200, error: null });
    const b = deliverer(s, 'b', send('b'), { leaseMS: 3000 });
    // a's claim returns after a stall: meanwhile its lease ran out and b took the delivery over and sent it.
    const stalled = Object.create(s.outbox) as Outbox;
    stalled.claim = async (...args: Parameters<Outbox['claim']>) => {
      const rows = await s.outbox.claim(...args);
      s.clock.advance(3001);
      b.start();
      await b.tick();
      return rows;
    };
    const a = new Deliverer({ outbox: stalled, store: s.store, settings: webhookSettings({ pollMS: 3_600_000, leaseMS: 3000 }), logger, owner: 'a', now: s.clock.now, send: send('a') });
    a.start();
    await a.tick();
    await a.idle();
    expect(sent).toEqual(['b d1']);
    expect(await row(s)).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(logs).toEqual([expect.stringMatching(/^warn .*delivery d1: its lease ran out 1 ms before .* does not send or record it/)]);
    await Promise.all([a.stop(), b.stop()]);
  });
});
