import request from 'supertest';
import { settled, startWebhookApp, waitFor, type WebhookTestApp } from '../../helpers/webhooks';
import { testEngine } from '../../helpers/test-engine';

// Two routers (two app instances) on one engine: the memory engine, or MongoDB when MONGODB_URI is set. Each has
// its own deliverer polling the same outbox; claims make each delivery go out from one of them, once.
describe('two instances on one engine', () => {
  let a: WebhookTestApp;
  let b: WebhookTestApp;
  beforeAll(async () => {
    const engine = testEngine();
    a = await startWebhookApp({ concurrency: 3 }, engine);
    b = await startWebhookApp({ concurrency: 3 }, engine);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('deliver each event once, whichever instance wrote it', async () => {
    // Both configure the webhook `recorder`, each with its own receiver's URL: the last instance started wrote it
    // (options are written at start-up), so every call goes to b's receiver once a has read it again.
    expect((await a.router.webhooks.get('recorder'))?.url).toBe(b.receiver.url);
    const writes = Array.from({ length: 12 }, (_, i) =>
      request(i % 2 ? a.app : b.app).post('/api/categories').set('Authorization', `Bearer ${a.token}`).send({ data: { name: `Category ${i}` } }),
    );
    for (const res of await Promise.all(writes)) expect(res.status).toBe(201);
    await settled(a.router);
    await waitFor(() => b.receiver.calls.length >= 12);
    await Promise.all([a.router.webhooks.stop(), b.router.webhooks.stop()]);
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
