import type { Server } from 'node:http';
import { memoryEngine, mongoEngine } from '../../lib';
import { createBlogApp } from './app';

/**
 * `npm start`: the example API at http://localhost:1337/api, configured as in production: the blog model's Public
 * role (reads only), its API tokens for writes, and a durable store (`.data/content.db`, created on first start
 * and seeded once with the demo data; `DATA_FILE` moves it, `MONGODB_URI` stores on MongoDB instead). Uploaded
 * files go to `.data/uploads` (`UPLOADS_DIR`). `PORT` overrides the port; `SEED=false` starts empty;
 * `SNAPSHOT_BYTES` sets the embedded engine's journal size between snapshots (default 16 MiB). Ctrl-C and SIGTERM
 * stop taking connections, let the requests in flight finish and close the engine (a last snapshot written, the
 * journal emptied): see docs/production.md.
 */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 1337);
  const uri = process.env.MONGODB_URI;
  const engine = uri ? mongoEngine({ uri }) : memoryEngine({ file: process.env.DATA_FILE ?? '.data/content.db', snapshotBytes: snapshotBytes() });
  const uploadsDir = process.env.UPLOADS_DIR ?? '.data/uploads';
  const { app, close } = await createBlogApp({ seed: process.env.SEED !== 'false', engine, uploadsDir });
  const server = app.listen(port, () => {
    console.log(`content-router example: http://localhost:${port}/api/articles`);
  });
  closeOnSignals(server, close);
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

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
