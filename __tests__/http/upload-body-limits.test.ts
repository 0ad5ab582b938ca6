import http from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import net from 'node:net';
import { answerClientErrors } from '../../lib/http/answer-client-errors';
import { drainRequest } from '../../lib/media';
import { createTestApp } from '../helpers/http';

/**
 * Bodies over their limits, on a real HTTP server with Node's own client (issue 19: 20,000 generated requests got
 * two connections closed without any answer on JSON bodies of 4 and 6 MB). The 413 must reach the client, even one
 * that waits for the answer before it sends the rest of its body, and the connection stays usable.
 */
let dir: string;
let server: http.Server;
let base: { host: string; port: number };
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'upload-body-limits-'));
  const t = await createTestApp({ upload: { directory: dir, sizeLimit: 1024 * 1024 } });
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = { host: '127.0.0.1', port: (server.address() as AddressInfo).port };
});
afterAll(async () => {
  agent.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: { data: null; error: { status: number; name: string; message: string } };
}

/**
 * Sends `total` bytes (`head`, then filler): the first `pauseAt` bytes, then waits for the answer before it sends
 * the rest (a client that reads the answer as it comes), then ends the request.
 */
function send(pathname: string, type: string, head: Buffer, total: number, pauseAt = total): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ ...base, path: pathname, method: 'POST', agent, headers: { 'content-type': type, 'content-length': total } });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (!req.writableEnded) req.end(Buffer.alloc(total - pauseAt, 0x61));
        resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer['body'] });
      });
    });
    req.write(head);
    if (pauseAt === total) req.end(Buffer.alloc(total - head.length, 0x61));
    else req.write(Buffer.alloc(pauseAt - head.length, 0x61));
  });
}

const SIX_MB = 6 * 1024 * 1024;
const json = Buffer.from('{"data":{"name":"');

describe('bodies over their limits get a 413 envelope the client reads', () => {
  it('a 6 MB JSON body to a content route: answered before the body is sent (the client waits for it after 1 MB)', async () => {
    const res = await send('/api/gadgets', 'application/json', json, SIX_MB, 1024 * 1024);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ data: null, error: { status: 413, name: 'PayloadTooLargeError', message: 'Payload Too Large', details: {} } });
  });

  it('a 6 MB JSON body to an info update of the media library', async () => {
    const res = await send('/api/upload?id=1', 'application/json', Buffer.from('{"fileInfo":{"name":"'), SIX_MB, 1024 * 1024);
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ status: 413, name: 'PayloadTooLargeError', message: 'The request body exceeds 1 MB.' });
  });

  it('a 6 MB multipart upload over upload.sizeLimit (1 MB): nothing stored', async () => {
    const boundary = 'xxBOUNDARYxx';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const res = await send('/api/upload', `multipart/form-data; boundary=${boundary}`, head, SIX_MB, 2 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ status: 413, name: 'PayloadTooLargeError', message: 'big.bin exceeds size limit of 1 MB.' });
    expect(await readdir(dir)).toEqual([]);
  });

  it('after each of them the same keep-alive connection answers the next request', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await send('/api/gadgets', 'application/json', json, 2 * 1024 * 1024)).status).toBe(413);
    }
    const ok = await send('/api/gadgets', 'application/json', Buffer.from('{"data":{}}'), 11);
    expect(ok.status).toBe(400); // the body was read and validated: a ValidationError, not a broken connection
  });
});

describe('drainRequest', () => {
  it('reads at most its limit of a refused body, then closes the connection', async () => {
    const app = express();
    let read = 0;
    app.post('/', (req, res) => {
      req.on('data', (c: Buffer) => (read += c.length));
      drainRequest(req, 100_000);
      res.status(413).json({ refused: true });
    });
    const small = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => small.once('listening', resolve));
    const closed = new Promise<void>((resolve) => small.once('connection', (socket) => socket.once('close', () => resolve())));
    const port = (small.address() as AddressInfo).port;
    const req = http.request({ host: '127.0.0.1', port, path: '/', method: 'POST', agent: false, headers: { 'content-length': 50 * 1024 * 1024 } });
    req.on('error', () => undefined); // the server closes while this client still sends: a reset is expected here
    const status = new Promise<number>((resolve) => req.on('response', (res) => resolve(res.statusCode!)));
    const chunk = Buffer.alloc(64 * 1024);
    const pump = (): void => {
      while (!req.destroyed && req.write(chunk));
      if (!req.destroyed) req.once('drain', pump);
    };
    pump();
    expect(await status).toBe(413);
    await closed;
    expect(read).toBeGreaterThan(100_000);
    expect(read).toBeLessThan(50 * 1024 * 1024);
    req.destroy();
    small.closeAllConnections();
    await new Promise((resolve) => small.close(resolve));
  });
});

describe('answerClientErrors', () => {
  it('a request Node\'s parser refuses (a raw non-ASCII byte in the path) with a 5 MB body gets the 400 envelope and a clean close', async () => {
    const app = http.createServer((_req, res) => res.end('ok'));
    answerClientErrors(app);
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', () => resolve()));
    const port = (app.address() as AddressInfo).port;
    const outcome = await new Promise<{ closed: boolean; text: string }>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
      socket.on('error', () => resolve({ closed: false, text })); // Node's default: a reset, the answer often lost
      socket.on('close', () => resolve({ closed: true, text }));
      const head = 'POST /api/article\u00c4s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n';
      socket.end(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.alloc(5_000_000, 0x61)]));
    });
    app.close();
    expect(outcome.closed).toBe(true);
    const [status, body] = [outcome.text.split('\r\n')[0], outcome.text.slice(outcome.text.indexOf('\r\n\r\n') + 4)];
    expect(status).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(body)).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message: 'Bad Request', details: {} } });
  });
});
