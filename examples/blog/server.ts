import type { Server } from 'node:http';
import path from 'node:path';
import { answerClientErrors, ConfigurationError, memoryEngine, mongoEngine, type ContentRouter } from '../../lib';
import { createBlogApp } from './app';
import { mongoOptionsFromEnv } from './mongo-from-env';

/**
 * `npm start`: the example API at http://localhost:1337/api, configured as in production: the blog model's Public
 * role (reads only), its API tokens for writes, and a durable store (`.data/content.db`, created on first start
 * and seeded once with the demo data; `DATA_FILE` moves it, `MONGODB_URI` stores on MongoDB instead,
 * `MONGODB_TRANSACTIONS=false` accepts a standalone MongoDB server). It listens at once; `/_health` says when the
 * storage engine serves. Uploaded
 * files go to `.data/uploads` (`UPLOADS_DIR`). `PORT` overrides the port; `SEED=false` starts empty;
 * `SNAPSHOT_BYTES` sets the embedded engine's journal size between snapshots (default 16 MiB). Users' logins are
 * signed with `JWT_SECRET`, or a secret generated on first start in `.data/jwt-secret` (next to `DATA_FILE`, mode
 * 0600); `PUBLIC_URL` is the API's public URL in e-mail links (default http://localhost:<port>/api); e-mails are
 * printed only under `NODE_ENV=development`. Ctrl-C and SIGTERM
 * stop taking connections, let the requests in flight finish and close the engine (a last snapshot written, the
 * journal emptied): see docs/production.md.
 */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 1337);
  const mongo = mongoOptionsFromEnv(process.env); // MONGODB_URI, MONGODB_TRANSACTIONS=false for a standalone server
  const dataFile = process.env.DATA_FILE ?? '.data/content.db';
  const engine = mongo ? mongoEngine(mongo) : memoryEngine({ file: dataFile, snapshotBytes: snapshotBytes() });
  // Without JWT_SECRET, the users' JWT secret is generated on first start and kept next to the data (mode 0600).
  const jwtSecretFile = path.join(path.dirname(dataFile), 'jwt-secret');
  const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${port}/api`;
  const uploadsDir = process.env.UPLOADS_DIR ?? '.data/uploads';
  // Listen at once, as in production: while the engine starts, or is retried after a failed start (a database
  // started after the app), the API and /_health answer 503 with Retry-After instead of refusing connections.
  const { app, router, started, close } = await createBlogApp({ seed: process.env.SEED !== 'false', engine, uploadsDir, listenFirst: true, jwtSecretFile, publicUrl });
  const server = app.listen(port, () => {
    console.log(`content-router example: listening on http://localhost:${port}/api/articles (health: /_health)`);
  });
  answerClientErrors(server); // requests Node's parser refuses get a 400 envelope, not a reset
  closeOnSignals(server, close);
  reportStart(router, started, port);
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
