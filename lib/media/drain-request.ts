import type { IncomingMessage } from 'node:http';

/**
 * How much of a refused request body is still read (and thrown away) after the answer: 64 MiB. A client that
 * sends its whole body before it reads the answer (most do) gets the 413 on a clean connection; past this the
 * connection is closed instead of reading an endless body.
 */
export const DRAIN_LIMIT = 64 * 1024 * 1024;

/**
 * Discards the rest of a request body the server will not use, at most `limit` bytes, then closes the
 * connection. The answer can be sent at once: closing the socket while the client is still sending would reset
 * the connection, and the client may never read the answer (the kernel drops what it had not read yet).
 *
 * @example drainRequest(req); next(new PayloadTooLargeError());
 */
export function drainRequest(req: IncomingMessage, limit: number = DRAIN_LIMIT): void {
  if (req.readableEnded || req.destroyed) return;
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > limit) req.socket?.destroy();
  });
  req.on('error', () => undefined);
  req.resume();
}
