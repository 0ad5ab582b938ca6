import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { DRAIN_LIMIT } from '../media';

const REASONS: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' };

function statusOf(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/**
 * Answers the requests Node's HTTP parser refuses before any route sees them (a malformed request line or header,
 * headers over the size limit) with Strapi's error envelope, then reads and throws away what the client is still
 * sending, at most `DRAIN_LIMIT` bytes, before closing. Node's own answer is a bare 400 written just before it
 * destroys the socket: a client still sending its body (a 5 MB POST to a path with a raw non-ASCII byte) gets a
 * connection reset and, often, no answer at all. Call it once on the server the router is mounted on.
 *
 * @example
 * const server = app.listen(1337);
 * answerClientErrors(server);
 */
export function answerClientErrors(server: Server, drainLimit: number = DRAIN_LIMIT): void {
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (answered.has(socket)) return; // the parser's next errors on the bytes being drained
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = statusOf(err.code);
    const body = JSON.stringify({ data: null, error: { status, name: status === 400 ? 'BadRequestError' : 'ApplicationError', message: REASONS[status], details: {} } });
    answered.add(socket);
    let drained = 0;
    socket.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > drainLimit) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    socket.resume();
  });
}
