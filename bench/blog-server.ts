/**
 * The in-process blog app that `npm run bench` and `npm run bench:cache` load, and how they load it: the example
 * app (examples/blog) on an ephemeral memory engine, seeded straight through the engine (bench/seed-blog.ts),
 * listening on 127.0.0.1; the ceiling it is measured against (a bare Express route sending fixed bytes); the load
 * options from the environment (BENCH_CONNECTIONS, BENCH_WARMUP, BENCH_DURATION) with the full-access API token.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { memoryEngine } from '../lib';
import { createBlogApp } from '../examples/blog/app';
import { loadBlogModel } from '../examples/blog/model';
import type { LoadOptions } from './load';
import { seedBlog, type SeededData } from './seed-blog';

/** A server listening on 127.0.0.1, and its base URL. */
export interface Listening {
  server: Server;
  base: string;
}

/** The number in the environment variable `name`, or `fallback` when it is unset or not a number >= 0. */
export const envNumber = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
};

/**
 * The load options of the environment: BENCH_CONNECTIONS (default 10), BENCH_WARMUP (default 1) and BENCH_DURATION
 * (default 5) seconds, as the example's full-access API token.
 *
 * @example
 * await load(`${blog.base}/api/articles`, blogLoadOptions());
 */
export function blogLoadOptions(): LoadOptions {
  const token = loadBlogModel().permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;
  return {
    connections: envNumber('BENCH_CONNECTIONS', 10),
    warmup: envNumber('BENCH_WARMUP', 1),
    duration: envNumber('BENCH_DURATION', 5),
    headers: { authorization: `Bearer ${token}` },
  };
}

/** `app` listening on 127.0.0.1 and a free port. */
export async function listen(app: express.Express): Promise<Listening> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

/**
 * The example blog app seeded with `articles` articles (2 rows each), 10,000 authors, 1,000 categories and 100
 * files, listening. `responseCache` sets the example's RESPONSE_CACHE (its 64 MB response cache) for this app only;
 * without it, the environment's stands. `seedMs`: how long the seeding took.
 *
 * @example
 * const blog = await startSeededBlog(1000); ...; await close(blog.server); await blog.blog.close();
 */
export async function startSeededBlog(articles: number, options: { responseCache?: boolean } = {}) {
  const previous = process.env.RESPONSE_CACHE;
  if (options.responseCache !== undefined) process.env.RESPONSE_CACHE = options.responseCache ? '1' : '0';
  const engine = memoryEngine({ ephemeral: true });
  const blog = await createBlogApp({ seed: false, engine });
  if (previous === undefined) delete process.env.RESPONSE_CACHE;
  else process.env.RESPONSE_CACHE = previous;
  const started = Date.now();
  const data: SeededData = await seedBlog(engine, { articles, authors: 10_000, categories: 1_000, files: 100 });
  const seedMs = Date.now() - started;
  return { ...(await listen(blog.app)), blog, data, seedMs };
}

/** The ceiling: a bare Express app whose `GET /ceiling` sends `bytes` as JSON, listening. */
export async function startCeiling(bytes: Buffer): Promise<Listening> {
  const bare = express();
  bare.disable('x-powered-by');
  bare.get('/ceiling', (_req, res) => {
    res.type('application/json').send(bytes);
  });
  return listen(bare);
}
