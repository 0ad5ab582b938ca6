import { signature } from './signing';
import type { AttemptOutcome } from './outbox';

/** One call to a webhook. */
export interface WebhookCall {
  readonly url: string;
  /** The delivery id, the same on every attempt (`webhook-id`). */
  readonly id: string;
  readonly event: string;
  readonly body: string;
  /** `defaultHeaders` then the webhook's own; Strapi's `X-Strapi-Event` and `Content-Type` are set after them. */
  readonly headers: Readonly<Record<string, string>>;
  readonly secret: string | null;
  readonly timeoutMS: number;
  /** This attempt's time (ms), sent as `webhook-timestamp` in seconds. */
  readonly now: number;
}

/** The most of an error answer's body kept in `lastError`. */
const SNIPPET_BYTES = 512;

/** At most the first `max` bytes of a body as text; the rest is never read (the stream is cancelled). */
async function snippet(response: Response, max: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

/** The headers of a call: Strapi's (webhook-runner.ts), then the Standard Webhooks id, timestamp and signature. */
export function callHeaders(call: WebhookCall): Record<string, string> {
  const timestamp = Math.floor(call.now / 1000);
  const headers: Record<string, string> = {
    ...call.headers,
    'X-Strapi-Event': call.event,
    'Content-Type': 'application/json',
    'webhook-id': call.id,
    'webhook-timestamp': String(timestamp),
  };
  if (call.secret !== null) headers['webhook-signature'] = signature(call.secret, call.id, timestamp, call.body);
  return headers;
}

/**
 * POSTs one delivery with Node's fetch, bounded by an `AbortSignal.timeout` (headers and the part of the body it
 * reads). A 2xx answer is delivered; anything else, a network error or the timeout is a failed attempt. Of an
 * answer's body at most 512 bytes are read (for `lastError`): a receiver cannot make an attempt hold more memory.
 *
 * @example
 * const outcome = await sendWebhook({ url, id, event: 'entry.create', body, headers: {}, secret: null, timeoutMS: 10_000, now: Date.now() });
 */
export async function sendWebhook(call: WebhookCall, fetchImpl: typeof fetch = fetch): Promise<AttemptOutcome> {
  const signal = AbortSignal.timeout(call.timeoutMS);
  try {
    const response = await fetchImpl(call.url, { method: 'POST', body: call.body, headers: callHeaders(call), signal });
    if (response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: true, status: response.status, error: null };
    }
    const text = await snippet(response, SNIPPET_BYTES).catch(() => '');
    return { ok: false, status: response.status, error: `HTTP ${response.status}${text ? `: ${text}` : ''}` };
  } catch (error) {
    const timedOut = signal.aborted;
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    const message = timedOut ? `no answer within ${call.timeoutMS} ms` : `${(error as Error).message}${cause ? ` (${cause})` : ''}`;
    return { ok: false, status: null, error: message };
  }
}
