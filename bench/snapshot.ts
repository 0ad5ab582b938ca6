/**
 * `npm run bench:snapshot`: what a snapshot of the embedded engine's data file costs the requests around it.
 * Seeds BENCH_SNAPSHOT_ARTICLES (default 100,000) generated articles (2 rows each) with 10,000 authors and 1,000
 * categories into a durable memory engine, then:
 * 1. writes one full snapshot of that state (engine.backup: the same writer, the same state size) with no load,
 *    and reports its time and the worst event-loop delay meanwhile;
 * 2. serves the example app on that engine with a small snapshot threshold (BENCH_SNAPSHOT_BYTES, default 64 KiB)
 *    under load (autocannon: list reads in a worker thread, article creates in this process since each body
 *    is made per request) for BENCH_SNAPSHOT_SECONDS
 *    (default 30), sampling the event-loop delay every 50 ms, and reports the worst delay and the p99 latency of
 *    the windows in which a snapshot was being written against those in which none was.
 * See docs/performance.md ("Snapshots").
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { memoryEngine } from '../lib';
import { createBlogApp } from '../examples/blog/app';
import { loadBlogModel } from '../examples/blog/model';
import { seedBlog } from './seed-blog';

const autocannon = require('autocannon') as (options: Record<string, unknown>) => Promise<{ requests: { total: number }; latency: { p99: number; max: number }; non2xx: number; errors: number }>;

const num = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const ms = (ns: number): string => `${(ns / 1e6).toFixed(0)} ms`;

async function main(): Promise<void> {
  const articles = num('BENCH_SNAPSHOT_ARTICLES', 100_000);
  const snapshotBytes = num('BENCH_SNAPSHOT_BYTES', 64 * 1024);
  const seconds = num('BENCH_SNAPSHOT_SECONDS', 30);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cr-bench-snapshot-'));
  const file = path.join(dir, 'content.db');
  try {
    const seeding = memoryEngine({ file, snapshotBytes: Number.MAX_SAFE_INTEGER });
    await createBlogApp({ seed: false, engine: seeding, uploadsDir: path.join(dir, 'uploads') });
    const t0 = Date.now();
    await seedBlog(seeding, { articles, authors: 10_000, categories: 1_000, files: 100 });
    console.log(`seeded ${articles} articles in ${Date.now() - t0} ms`);

    const histogram = monitorEventLoopDelay({ resolution: 5 });
    histogram.enable();
    const t1 = Date.now();
    await seeding.backup(path.join(dir, 'backup.db'));
    histogram.disable();
    const bytes = (await stat(path.join(dir, 'backup.db'))).size;
    console.log(`one snapshot, no load: ${(bytes / 1024 / 1024).toFixed(0)} MiB in ${Date.now() - t1} ms, worst event-loop delay ${ms(histogram.max)}`);
    await seeding.close();

    const engine = memoryEngine({ file, snapshotBytes });
    const blog = await createBlogApp({ seed: false, engine, uploadsDir: path.join(dir, 'uploads') });
    const server = blog.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const token = loadBlogModel().permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const windows = { during: [] as number[], outside: [] as number[] };
    const sampler = monitorEventLoopDelay({ resolution: 5 });
    sampler.enable();
    let snapshots = 0;
    let wasWriting = false;
    const tick = setInterval(() => {
      const writing = existsSync(`${file}.tmp`);
      if (writing && !wasWriting) snapshots++;
      (writing || wasWriting ? windows.during : windows.outside).push(sampler.max);
      wasWriting = writing;
      sampler.reset();
    }, 50);
    // Each create a new slug (the attribute is unique), a 280-character description (its maxLength is 300).
    let n = 0;
    const requests = [{ method: 'POST', setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify({ data: { title: `Bench snapshot ${++n}`, slug: `bench-snapshot-${n}`, description: 'x'.repeat(280), views: n, featured: n % 2 === 0 } }) }) }];
    const [reads, writes] = await Promise.all([
      autocannon({ url: `${base}/api/articles?pagination[pageSize]=10`, connections: 4, duration: seconds, headers, workers: 1 }),
      autocannon({ url: `${base}/api/articles`, requests, connections: 1, duration: seconds, headers }),
    ]);
    clearInterval(tick);
    sampler.disable();
    const worst = (xs: number[]): number => xs.reduce((a, b) => Math.max(a, b), 0);
    console.log(`under load (${seconds} s, snapshot every ${(snapshotBytes / 1024).toFixed(0)} KiB of journal): ${snapshots} snapshots`);
    console.log(`  worst event-loop delay: ${ms(worst(windows.during))} in the ${windows.during.length} windows of 50 ms with a snapshot being written, ${ms(worst(windows.outside))} in the ${windows.outside.length} others`);
    console.log(`  reads: ${reads.requests.total} (p99 ${reads.latency.p99} ms, max ${reads.latency.max} ms, ${reads.non2xx + reads.errors} failed)`);
    console.log(`  creates: ${writes.requests.total} (p99 ${writes.latency.p99} ms, max ${writes.latency.max} ms, ${writes.non2xx + writes.errors} failed)`);
    await new Promise((r) => server.close(r));
    await blog.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

void main();
