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
 * A signal that aborts `ms` from now, once the input that came in meanwhile has been read: the timer hands over to
 * `setImmediate`, which runs after the event loop's poll phase (https://nodejs.org/en/learn/asynchronous-work/event-loop-timers-and-nexttick).
 * A process held up past the timeout (CPU starved, stopped) with the answer already in its socket then reads the
 * answer, where `AbortSignal.timeout` fires first (timers run before the poll phase) and the call, answered, would
 * count as unanswered and be sent again.
 */
function timeoutAfterInput(ms: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  let immediate: NodeJS.Immediate | undefined;
  const timer = setTimeout(() => {
    immediate = setImmediate(() => controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')));
  }, ms);
  timer.unref();
  return { signal: controller.signal, clear: () => (clearTimeout(timer), immediate && clearImmediate(immediate)) };
}

/**
 * POSTs one delivery with Node's fetch, bounded by a timeout (headers and the part of the body it reads; an answer
 * that came in before the process could look is read first). A 2xx answer is delivered; anything else, a network
 * error or the timeout is a failed attempt. Of an answer's body at most 512 bytes are read (for `lastError`): a
 * receiver cannot make an attempt hold more memory.
 *
 * @example
 * const outcome = await sendWebhook({ url, id, event: 'entry.create', body, headers: {}, secret: null, timeoutMS: 10_000, now: Date.now() });
 */
export async function sendWebhook(call: WebhookCall, fetchImpl: typeof fetch = fetch): Promise<AttemptOutcome> {
  const { signal, clear } = timeoutAfterInput(call.timeoutMS);
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
  } finally {
    clear();
  }
}
