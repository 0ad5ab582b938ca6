/**
 * One server of `npm run bench:writes` (bench/writes.ts), in a process of its own:
 * `node -r ts-node/register/transpile-only bench/write-server.ts <checkout> <articles> <file|ephemeral> <dir>`
 * starts the example blog app of `<checkout>` (this repository, or a worktree of another commit: "old vs new" in
 * one run) on 127.0.0.1, seeded by this repository's bench/seed-blog.ts, and prints `READY <port>`. With `file`,
 * the engine is the one `npm start` uses (`memoryEngine({ file })`, every write fsynced to the journal): seeded,
 * closed (a snapshot, an empty journal) and opened again, so the measurement starts from a loaded file as a
 * restarted server does. `<checkout>` = `ceiling`: a bare Express app that parses the JSON body and answers 201
 * with it (the ceiling of a write). `<checkout>` = `read-ceiling`, `<kind>` = a JSON file of `{ [path]: base64 }`: a
 * bare Express app that answers a GET of each path with those bytes as JSON (the ceiling of a read, bench:reads).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { seedBlog } from './seed-blog';

interface Checkout {
  memoryEngine: (options: Record<string, unknown>) => import('../lib').Engine;
  createBlogApp: (options: Record<string, unknown>) => Promise<{ app: express.Express; close(): Promise<void> }>;
}

async function main(): Promise<void> {
  const [checkout = '.', articles = '1000', kind = 'file', dir = '/tmp'] = process.argv.slice(2);
  let server: Server;
  if (checkout === 'ceiling') {
    const app = express();
    app.use(express.json());
    let id = 0;
    app.all('/{*any}', (req, res) => {
      id++;
      res.status(req.method === 'POST' ? 201 : 200).json({ data: { id, documentId: `doc-${id}`, ...(req.body as { data?: object } | undefined)?.data }, meta: {} });
    });
    server = app.listen(0, '127.0.0.1');
  } else if (checkout === 'read-ceiling') {
    const answers = new Map(Object.entries(JSON.parse(fs.readFileSync(kind, 'utf8')) as Record<string, string>).map(([p, b]) => [p, Buffer.from(b, 'base64')]));
    const app = express();
    app.disable('x-powered-by');
    app.get('/{*any}', (req, res) => {
      const bytes = answers.get(req.originalUrl);
      if (bytes === undefined) res.status(404).end();
      else res.type('application/json').send(bytes);
    });
    server = app.listen(0, '127.0.0.1');
  } else {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const root = path.resolve(checkout);
    const { memoryEngine } = require(path.join(root, 'lib')) as Pick<Checkout, 'memoryEngine'>;
    const { createBlogApp } = require(path.join(root, 'examples/blog/app')) as Pick<Checkout, 'createBlogApp'>;
    const file = path.join(dir, 'content.db');
    const engineOptions = kind === 'file' ? { file } : { ephemeral: true };
    const engine = memoryEngine(engineOptions);
    let blog = await createBlogApp({ seed: false, engine, uploadsDir: path.join(dir, 'uploads') });
    await seedBlog(engine, { articles: Number(articles), authors: 10_000, categories: 1_000, files: 100 });
    if (kind === 'file') {
      await blog.close();
      blog = await createBlogApp({ seed: false, engine: memoryEngine(engineOptions), uploadsDir: path.join(dir, 'uploads') });
    }
    server = blog.app.listen(0, '127.0.0.1');
  }
  await new Promise((resolve) => server.once('listening', resolve));
  console.log(`READY ${(server.address() as AddressInfo).port}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
