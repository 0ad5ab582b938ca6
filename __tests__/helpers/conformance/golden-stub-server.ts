import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReplaySide } from './types';

/** A request the stub received, as seen on the wire. */
export interface StubRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

/** A server that answers the Nth request with the Nth recorded answer of a replay output. */
export interface GoldenStub {
  readonly base: string;
  readonly received: readonly StubRequest[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

/**
 * Starts a local HTTP server on a free port that plays back `side` in order (status, content-type, body),
 * recording what it received: replaying the corpus against it must reproduce the recording exactly,
 * which tests the replay harness without any implementation of the API.
 * @example const stub = await startGoldenStub(loadSide(GOLDEN_DIR))
 */
export async function startGoldenStub(side: ReplaySide): Promise<GoldenStub> {
  const received: StubRequest[] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then((body) => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const name = side.index[received.length - 1];
      const rec = name === undefined ? undefined : side.records.get(name);
      if (!rec) {
        res.writeHead(599).end();
        return;
      }
      const ct = rec.headers['content-type'];
      if (ct) res.setHeader('content-type', ct);
      res.statusCode = rec.status;
      if (rec.body === null) res.end();
      else res.end(typeof rec.body === 'string' && !/json/.test(ct ?? '') ? rec.body : JSON.stringify(rec.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
