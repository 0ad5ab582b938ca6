import { createHmac, timingSafeEqual } from 'node:crypto';
import { sendWebhook, type WebhookCall } from '../../../lib/webhooks/send-webhook';
import { signature } from '../../../lib/webhooks/signing';
import { startReceiver, type ReceivedCall, type WebhookReceiver } from '../../helpers/conformance/webhook-receiver';

describe('signature: the Standard Webhooks scheme', () => {
  it("matches the specification's example (whsec_ secret, id, timestamp, body)", () => {
    // https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md (signature example)
    expect(signature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
  it('uses the bytes of a secret without the whsec_ prefix', () => {
    const expected = createHmac('sha256', 'plain secret').update('id.1.{}').digest('base64');
    expect(signature('plain secret', 'id', 1, '{}')).toBe(`v1,${expected}`);
  });
});

/** What a receiver does to check a call, as docs/webhooks.md tells it. */
function verify(call: ReceivedCall, secret: string): boolean {
  const id = String(call.headers['webhook-id']);
  const timestamp = String(call.headers['webhook-timestamp']);
  const expected = Buffer.from(createHmac('sha256', secret).update(`${id}.${timestamp}.${call.raw}`).digest('base64'));
  return String(call.headers['webhook-signature'])
    .split(' ')
    .some((s) => s.startsWith('v1,') && Buffer.from(s.slice(3)).length === expected.length && timingSafeEqual(Buffer.from(s.slice(3)), expected));
}

describe('sendWebhook', () => {
  let receiver: WebhookReceiver;
  beforeEach(async () => void (receiver = await startReceiver()));
  afterEach(() => receiver.close());
  const call = (over: Partial<WebhookCall> = {}): WebhookCall => ({
    url: receiver.url, id: 'delivery-1', event: 'entry.create', body: '{"event":"entry.create"}', headers: { 'X-Oracle': 'recorder' }, secret: null, timeoutMS: 2000, now: 1_700_000_000_000, ...over,
  });

  it("POSTs the body with Strapi's headers, the webhook's own and the delivery id", async () => {
    expect(await sendWebhook(call())).toEqual({ ok: true, status: 200, error: null });
    const [got] = receiver.calls;
    expect(got).toMatchObject({ method: 'POST', url: '/hook', raw: '{"event":"entry.create"}' });
    expect(got!.headers).toMatchObject({ 'x-strapi-event': 'entry.create', 'content-type': 'application/json', 'x-oracle': 'recorder', 'webhook-id': 'delivery-1', 'webhook-timestamp': '1700000000' });
    expect(got!.headers['webhook-signature']).toBeUndefined();
  });

  it('signs the call when the webhook has a secret; a receiver verifies it, and not a changed body', async () => {
    await sendWebhook(call({ secret: 's3cret' }));
    const [got] = receiver.calls;
    expect(verify(got!, 's3cret')).toBe(true);
    expect(verify({ ...got!, raw: got!.raw.replace('create', 'delete') }, 's3cret')).toBe(false);
    expect(verify(got!, 'other')).toBe(false);
  });

  it('a non-2xx answer fails the attempt with the status and the start of the answer', async () => {
    receiver.answer(() => 500);
    expect(await sendWebhook(call())).toEqual({ ok: false, status: 500, error: 'HTTP 500: receiver error' });
  });

  it('a receiver that never answers fails the attempt at the timeout', async () => {
    receiver.answer(() => 'hang');
    expect(await sendWebhook(call({ timeoutMS: 50 }))).toEqual({ ok: false, status: null, error: 'no answer within 50 ms' });
  });

  it('an unreachable receiver fails the attempt with the network error', async () => {
    const url = receiver.url;
    await receiver.close(); // nothing listens there now
    const outcome = await sendWebhook(call({ url }));
    expect(outcome).toMatchObject({ ok: false, status: null });
    expect(outcome.error).toMatch(/fetch failed.*ECONNREFUSED/);
  });
});

/**
 * A receiver on its own thread (its own event loop: it answers while this thread is held up), which answers a call
 * only once this thread says so. flags[0]: 1 when a call came in, 2 when its answer is written; flags[1]: 1 to answer.
 */
const HELD_RECEIVER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const flags = new Int32Array(workerData.shared);
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    Atomics.store(flags, 0, 1);
    Atomics.wait(flags, 1, 0, 10000);
    res.writeHead(204);
    res.end(() => Atomics.store(flags, 0, 2));
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

describe('sendWebhook in a process held up past the timeout (issue 30)', () => {
  it('reads an answer that came in meanwhile instead of failing the attempt (which would send the call again)', async () => {
    const { Worker } = await import('node:worker_threads');
    const shared = new SharedArrayBuffer(8);
    const flags = new Int32Array(shared);
    const worker = new Worker(HELD_RECEIVER, { eval: true, workerData: { shared } });
    try {
      const port = await new Promise<number>((resolve) => worker.once('message', resolve));
      const timeoutMS = 200;
      const started = Date.now();
      const outcome = sendWebhook({ url: `http://127.0.0.1:${port}/hook`, id: 'd1', event: 'media.create', body: '{}', headers: {}, secret: null, timeoutMS, now: started });
      while (Atomics.load(flags, 0) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      // The call is at the receiver. This thread is now held up (as a starved process is), in a callback of the
      // event loop's check phase: the receiver answers meanwhile, the timeout passes, and the loop's next turn runs
      // its timers before it reads the socket.
      await new Promise<void>((resolve) => setImmediate(() => {
        Atomics.store(flags, 1, 1);
        Atomics.notify(flags, 1);
        while (Atomics.load(flags, 0) !== 2) Atomics.wait(flags, 0, 1, 10);
        while (Date.now() - started < timeoutMS * 2); // busy, past the timeout
        resolve();
      }));
      expect(await outcome).toEqual({ ok: true, status: 204, error: null });
    } finally {
      await worker.terminate();
    }
  });
});
