/**
 * `npm run bench`: loads an in-process blog app (memory engine) with autocannon at two data sizes and prints
 * req/s, p50 and p99 per scenario, each as a ratio to a bare Express route returning the same bytes as the
 * `populate=*` list (the ceiling), and the large/small slowdown. See docs/performance.md.
 *
 * Environment: BENCH_DURATION (seconds per scenario, default 5), BENCH_WARMUP (default 1),
 * BENCH_CONNECTIONS (default 10), BENCH_SIZES (article counts, default "1000,100000").
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import express from 'express';
import { memoryEngine } from '../lib';
import { createBlogApp } from '../examples/blog/app';
import { loadBlogModel } from '../examples/blog/model';
import { load, type LoadOptions, type LoadResult } from './load';
import { formatSize, formatSlowdown, type SizeResult } from './report';
import { CEILING_OF, SCENARIOS } from './scenarios';
import { seedBlog } from './seed-blog';

const num = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
};

async function listen(app: express.Express): Promise<{ server: Server; base: string }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

async function fetchOk(url: string, headers: Record<string, string>): Promise<Buffer> {
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw new Error(`${url}: ${res.status} ${body.toString('utf8').slice(0, 300)}`);
  return body;
}

async function benchSize(articles: number, options: LoadOptions): Promise<SizeResult> {
  const engine = memoryEngine();
  const blog = await createBlogApp({ seed: false, engine });
  const started = Date.now();
  const data = await seedBlog(engine, { articles, authors: 10_000, categories: 1_000, files: 100 });
  console.log(`\nseeded ${articles} articles (2 rows each), 10000 authors, 1000 categories in ${Date.now() - started} ms`);
  const app = await listen(blog.app);
  const scenarios = new Map<string, LoadResult>();
  let ceilingBytes: Buffer | undefined;
  for (const s of SCENARIOS) {
    const url = app.base + s.path(data);
    const body = await fetchOk(url, options.headers);
    if (s.name === CEILING_OF) ceilingBytes = body;
    scenarios.set(s.name, await load(url, options));
    console.log(`  ${s.name}: ${body.length} bytes, ${scenarios.get(s.name)!.rps.toFixed(0)} req/s`);
  }
  await close(app.server);
  await blog.close();
  const bare = express();
  bare.disable('x-powered-by');
  bare.get('/ceiling', (_req, res) => {
    res.type('application/json').send(ceilingBytes);
  });
  const ceilingApp = await listen(bare);
  const ceiling = await load(`${ceilingApp.base}/ceiling`, options);
  await close(ceilingApp.server);
  return { articles, ceiling, scenarios };
}

async function main(): Promise<void> {
  const token = loadBlogModel().permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;
  const options: LoadOptions = {
    connections: num('BENCH_CONNECTIONS', 10),
    warmup: num('BENCH_WARMUP', 1),
    duration: num('BENCH_DURATION', 5),
    headers: { authorization: `Bearer ${token}` },
  };
  const sizes = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  console.log(`node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown cpu'} x${os.cpus().length}, ${options.connections} connections, ${options.duration} s per scenario`);
  const results: SizeResult[] = [];
  for (const size of sizes) results.push(await benchSize(size, options));
  console.log('');
  for (const r of results) console.log(`${formatSize(r)}\n`);
  const [small, large] = [results[0], results[results.length - 1]];
  if (small && large && small !== large) console.log(formatSlowdown(small, large));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
