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
