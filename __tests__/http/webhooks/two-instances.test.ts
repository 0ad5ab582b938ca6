import request from 'supertest';
import type { Engine } from '../../../lib';
import { DELIVERIES_COLLECTION } from '../../../lib/webhooks/outbox';
import { indexCheckedEngine } from '../../helpers/index-eligibility';
import { mongoTestEngine, testDatabaseUri, testEngine } from '../../helpers/test-engine';
import { settled, startWebhookApp, waitFor, type WebhookTestApp } from '../../helpers/webhooks';

/** One instance's claims, as its engine saw them. */
interface Claims {
  /** The delivery ids of its first claim. */
  first: string[] | null;
  /** Rows its claims took, in all. */
  taken: number;
}

/**
 * `engine` as one instance sees it: its claims (the outbox's `updateMany` that counts an attempt) are counted, and
 * they wait at `gate` until every write is stored and both instances have a claim ready, so that the first claims
 * of the two race for the same rows (each lists every due row, the oldest one included).
 */
function racingClaims(engine: Engine, claims: Claims, gate: Promise<void>, ready: () => void): Engine {
  return new Proxy(engine, {
    get(target, key, receiver) {
      if (key !== 'updateMany') return Reflect.get(target, key, receiver) as unknown;
      return async (...args: Parameters<Engine['updateMany']>) => {
        const [collection, filter, update] = args;
        if (collection !== DELIVERIES_COLLECTION || !(update as { $inc?: { attempts?: number } }).$inc?.attempts) return target.updateMany(...args);
        if (claims.first === null) {
          claims.first = [...((filter as { id: { $in: string[] } }).id.$in)];
          ready();
        }
        await gate;
        const taken = await target.updateMany(...args);
        claims.taken += taken;
        return taken;
      };
    },
  });
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * The engines of the two instances. On MongoDB, two separate `mongoEngine({ uri })` connections to one database
 * of this file's own (dropped after it), as two app servers have. The embedded engine is single-process: its data
 * file has one writer (a second engine on the file is refused by the file's lock) and an `ephemeral` one is that
 * process's memory, so there the two routers share one engine object, with their own deliverers and leases.
 */
function instanceEngines(): [Engine, Engine] {
  if (!process.env.MONGODB_URI) {
    const engine = testEngine();
    return [engine, engine];
  }
  const uri = testDatabaseUri();
  return [indexCheckedEngine(mongoTestEngine(uri)), indexCheckedEngine(mongoTestEngine(uri))];
}

const form = process.env.MONGODB_URI ? 'two MongoDB connections to one database' : 'one shared embedded engine';

// Each instance has its own deliverer polling the same outbox; a claim is one `updateMany` whose filter says the
// row is still pending and not leased, and "a write operation is atomic on the level of a single document, even if
// the operation modifies multiple embedded documents" / "when a single write operation (e.g.
// db.collection.updateMany()) modifies multiple documents, the modification of each document is atomic"
// (https://www.mongodb.com/docs/manual/core/write-operations-atomicity/): of two claims racing for a row, the
// second finds it no longer matching its filter and leaves it (the same as findOneAndUpdate's single-document
// atomicity, https://www.mongodb.com/docs/manual/reference/method/db.collection.findOneAndUpdate/). So every
// row is taken once. Were claims not exclusive (a filter without the state or the lease, or a read then a write),
// both first claims would take the oldest row: more rows taken than deliveries, a second attempt counted, a call
// sent twice.
describe(`two instances on one store (${form})`, () => {
  let a: WebhookTestApp;
  let b: WebhookTestApp;
  const claims: [Claims, Claims] = [{ first: null, taken: 0 }, { first: null, taken: 0 }];
  const gate = deferred(); // opens once every write is stored and both instances have a claim ready
  const writesStored = deferred();
  let ready = 0;
  const arrived = (): void => {
    if (++ready === 2) void writesStored.promise.then(gate.resolve);
  };
  beforeAll(async () => {
    const [engineA, engineB] = instanceEngines();
    // concurrency 24: half of it (12) may go to one webhook, so a first claim lists every due row.
    a = await startWebhookApp({ concurrency: 24 }, racingClaims(engineA, claims[0], gate.promise, arrived));
    b = await startWebhookApp({ concurrency: 24 }, racingClaims(engineB, claims[1], gate.promise, arrived));
  });
  afterAll(async () => {
    gate.resolve();
    await a?.close();
    await b?.close();
  });

  it('deliver each event once, whichever instance wrote it', async () => {
    // Both configure the webhook `recorder`, each with its own receiver's URL: the last instance started wrote it
    // (options are written at start-up), so every call goes to b's receiver once a has read it again.
    expect((await a.router.webhooks.get('recorder'))?.url).toBe(b.receiver.url);
    const writes = Array.from({ length: 12 }, (_, i) =>
      request(i % 2 ? a.app : b.app).post('/api/categories').set('Authorization', `Bearer ${a.token}`).send({ data: { name: `Category ${i}` } }),
    );
    for (const res of await Promise.all(writes)) expect(res.status).toBe(201);
    writesStored.resolve();
    await settled(a.router);
    await waitFor(() => b.receiver.calls.length >= 12);
    await Promise.all([a.router.webhooks.stop(), b.router.webhooks.stop()]);
    // The two first claims raced for at least one same row, and every row was taken once.
    const [firstA, firstB] = claims.map((c) => c.first ?? []);
    expect(firstA!.filter((id) => firstB!.includes(id)).length).toBeGreaterThan(0);
    expect(claims[0].taken + claims[1].taken).toBe(12);
    const ids = b.receiver.calls.map((c) => String(c.headers['webhook-id']));
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    const names = b.receiver.calls.map((c) => (c.body as { entry: { name: string } }).entry.name).sort();
    expect(names).toEqual(Array.from({ length: 12 }, (_, i) => `Category ${i}`).sort());
    expect(a.receiver.calls).toHaveLength(0);
    const deliveries = await a.router.webhooks.deliveries();
    expect(deliveries.map((d) => [d.state, d.attempts])).toEqual(Array.from({ length: 12 }, () => ['delivered', 1]));
  });
});
