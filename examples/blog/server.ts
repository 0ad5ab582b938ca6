import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { answerClientErrors, ConfigurationError, memoryEngine, mongoEngine, type ContentRouter } from '../../lib';
import { createBlogApp } from './app';
import { mongoOptionsFromEnv } from './mongo-from-env';

/**
 * `npm start`: the example API at http://localhost:1337/api, configured as in production: the blog model's Public
 * role (reads only), its API tokens for writes, and a durable store (`.data/content.db`, created on first start
 * and seeded once with the demo data; `DATA_FILE` moves it, `MONGODB_URI` stores on MongoDB instead,
 * `MONGODB_TRANSACTIONS=false` accepts a standalone MongoDB server). It listens at once; `/_health` says when the
 * storage engine serves. A port already in use stops it at once (exit code 1, the port named), before the store
 * is opened. Uploaded
 * files go to `.data/uploads` (`UPLOADS_DIR`). `PORT` overrides the port; `SEED=false` starts empty;
 * `SNAPSHOT_BYTES` sets the embedded engine's journal size between snapshots (default 16 MiB). Users' logins are
 * signed with `JWT_SECRET`, or a secret generated on first start in `.data/jwt-secret` (next to `DATA_FILE`, mode
 * 0600); `PUBLIC_URL` is the API's public URL in e-mail links (default http://localhost:<port>/api); e-mails are
 * printed only under `NODE_ENV=development`. Ctrl-C and SIGTERM
 * stop taking connections, let the requests in flight finish and close the engine (a last snapshot written, the
 * journal emptied): see docs/production.md.
 */
async function main(): Promise<void> {
  const wanted = portFromEnv(process.env.PORT);
  const mongo = mongoOptionsFromEnv(process.env); // MONGODB_URI, MONGODB_TRANSACTIONS=false for a standalone server
  const dataFile = process.env.DATA_FILE ?? '.data/content.db';
  const engine = mongo ? mongoEngine(mongo) : memoryEngine({ file: dataFile, snapshotBytes: snapshotBytes() });
  // Without JWT_SECRET, the users' JWT secret is generated on first start and kept next to the data (mode 0600).
  const jwtSecretFile = path.join(path.dirname(dataFile), 'jwt-secret');
  const uploadsDir = process.env.UPLOADS_DIR ?? '.data/uploads';
  // The port first: taken by another program, the example stops here, before the engine opens (and seeds) the store.
  let app: RequestListener | undefined;
  const server = await listen(wanted, (req, res) => (app ? app(req, res) : answerStarting(res)));
  const { port } = server.address() as AddressInfo; // PORT=0: the free port the system chose
  console.log(`content-router example: listening on http://localhost:${port}/api/articles (health: /_health, admin: /admin/)`);
  answerClientErrors(server); // requests Node's parser refuses get a 400 envelope, not a reset
  const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${port}/api`;
  // Listening at once, as in production: while the engine starts, or is retried after a failed start (a database
  // started after the app), the API and /_health answer 503 with Retry-After instead of refusing connections.
  const blog = await createBlogApp({ seed: process.env.SEED !== 'false', engine, uploadsDir, listenFirst: true, jwtSecretFile, publicUrl });
  app = blog.app;
  closeOnSignals(server, blog.close);
  reportStart(blog.router, blog.started, port);
}

/**
 * Listens on `port` (every interface, as `app.listen(port)`); resolves once listening. A port in use, or one this
 * user may not take, ends the process at once with exit code 1 and the port in the message: Express 5's
 * `app.listen(port, callback)` hands that error to the callback, and a callback that ignores it left the example
 * "listening" while another program answered on the port.
 */
function listen(port: number, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer(handler);
    server.once('error', (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'EADDRINUSE'
          ? 'another program is listening on it. Stop that program, or start the example on another port: PORT=<port> npm start'
          : error.code === 'EACCES'
            ? 'permission denied (ports below 1024 need privileges): PORT=<port> npm start with a port of 1024 or more'
            : error.message;
      console.error(`content-router example: cannot listen on port ${port}: ${why}`);
      process.exit(1);
    });
    server.listen(port, () => resolve(server));
  });
}

/** The few milliseconds between listening and the app being built: 503 with Retry-After, as while the engine starts. */
function answerStarting(res: ServerResponse): void {
  const body = JSON.stringify({ data: null, error: { status: 503, name: 'ServiceUnavailableError', message: 'Service Unavailable: starting', details: {} } });
  res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': '1' }).end(body);
}

/** `PORT`: a whole number from 0 to 65535 (0: any free port), 1337 when unset. */
function portFromEnv(text: string | undefined): number {
  if (text === undefined || text === '') return 1337;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new Error(`PORT must be a whole number from 0 to 65535, not ${JSON.stringify(text)}`);
  return port;
}

/** Says what really happens once the first start-up has settled; a failed seeding (a bug) stops the example. */
function reportStart(router: ContentRouter, started: Promise<void>, port: number): void {
  router.ready.then(
    () => started.then(() => console.log(`content-router example: ready on http://localhost:${port}/api/articles`), fail),
    (error: unknown) => {
      // The router has logged the cause; the example keeps listening and the router keeps retrying.
      console.error(
        `content-router example: still listening on port ${port}: the API and /_health answer 503 (Retry-After) until the storage engine ` +
          'starts (a request 5 s or more after the last attempt starts another). The demo data load at a start that finds the store up and empty.',
      );
      if (error instanceof ConfigurationError && error.code === 'CR_NO_TRANSACTIONS') {
        console.error('content-router example: a standalone MongoDB server? For local development, start with MONGODB_TRANSACTIONS=false.');
      }
    },
  );
}

function fail(error: unknown): never {
  console.error(error instanceof ConfigurationError ? `content-router example: ${error.message}` : error);
  process.exit(1);
}

/** `SNAPSHOT_BYTES`: a positive whole number of bytes, or unset for the engine's default. */
function snapshotBytes(): number | undefined {
  const text = process.env.SNAPSHOT_BYTES;
  if (text === undefined || text === '') return undefined;
  const bytes = Number(text);
  if (!Number.isSafeInteger(bytes) || bytes <= 0) throw new Error(`SNAPSHOT_BYTES must be a positive whole number of bytes, not ${JSON.stringify(text)}`);
  return bytes;
}

/**
 * The shutdown a host owes the engine: on SIGINT or SIGTERM, stop accepting connections, let the requests in
 * flight finish, then close the engine. A second signal exits at once (the journal keeps every acknowledged write).
 */
function closeOnSignals(server: Server, close: () => Promise<void>): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) process.exit(1);
    closing = true;
    console.log(`content-router example: ${signal}, closing`);
    server.close(() => {
      close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
    });
    server.closeIdleConnections();
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch(fail);
