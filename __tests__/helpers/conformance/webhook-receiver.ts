import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call a receiver got. */
export interface ReceivedCall {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** The raw body (what a signature covers). */
  readonly raw: string;
  readonly body: unknown;
}

/** What the receiver answers to a call: a status (200 by default), or `hang` (never answer). */
export type ReceiverAnswer = number | 'hang';

export interface WebhookReceiver {
  readonly url: string;
  readonly calls: ReceivedCall[];
  /** Sets how the next calls are answered (by default 200). */
  answer(fn: (call: ReceivedCall) => ReceiverAnswer): void;
  close(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1 (a free port) recording every call, at `/hook` as in Strapi's recording.
 *
 * @example
 * const receiver = await startReceiver();
 * // ... writes ...
 * expect(receiver.calls.map((c) => c.headers['x-strapi-event'])).toContain('entry.create');
 */
export async function startReceiver(): Promise<WebhookReceiver> {
  const calls: ReceivedCall[] = [];
  let answerWith: (call: ReceivedCall) => ReceiverAnswer = () => 200;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // kept as text
      }
      const call = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw, body };
      calls.push(call);
      const answer = answerWith(call);
      if (answer === 'hang') return;
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer >= 400 ? 'receiver error' : 'ok');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    calls,
    answer(fn) {
      answerWith = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
