/**
 * `npm run bench:writes`: the cost of writes and of a list read right after a write, at 1,000 and 100,000 articles,
 * on the engine `npm start` uses (`memoryEngine({ file })`: every acknowledged write fsynced), old vs new in one
 * run. Each checkout's example app runs in a process of its own (bench/write-server.ts), seeded by
 * bench/seed-blog.ts; autocannon loads it from a worker thread of this process, `BENCH_CONNECTIONS` (default 10)
 * connections. Per size, each round measures the ceiling (a bare Express app parsing and answering the JSON body)
 * and then every scenario on every checkout (their order alternating per round), so that every figure is read as
 * a share of that round's ceiling. Prints, per scenario and checkout, the median over the rounds of req/s and of
 * its share of the ceiling, the median of each round's new / old, and the slowdown 100k / 1k.
 *
 * Environment: `BENCH_OLD` (a checkout of the code to compare with: `git worktree add /tmp/old-main main` and
 * `ln -s $PWD/node_modules /tmp/old-main/node_modules`), `BENCH_SIZES` (default `1000,100000`), `BENCH_ROUNDS`
 * (default 3), `BENCH_DURATION` (seconds, default 5), `BENCH_WARMUP` (seconds, default 1), `BENCH_ENGINE`
 * (`file`, the default, or `ephemeral`). Creates add rows while they are measured (thousands per round), so the
 * collections grow during a run.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBlogModel } from '../examples/blog/model';
import { startWriteServer, stopWriteServer, type WriteServer } from './write-server-process';

type Request = { method: string; path: string; body?: string; headers?: Record<string, string> };
type Autocannon = (options: Record<string, unknown>) => Promise<{ requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number }>;
const autocannon = require('autocannon') as Autocannon;

const docId = (prefix: string, n: number): string => `${prefix}-${n.toString(36).padStart(6, '0')}`;

/** The measured scenarios: a request sequence each connection sends in a loop (`[<id>]`: a fresh id per request). */
const SCENARIOS: readonly { name: string; requests: () => Request[] }[] = [
  {
    name: 'create author (flat)',
    requests: () => [{ method: 'POST', path: '/api/authors', body: JSON.stringify({ data: { name: 'Bench [<id>]', email: 'bench-[<id>]@example.com', bio: 'Writes benchmarks.' } }) }],
  },
  {
    name: 'create article (relations, component)',
    requests: () => [
      {
        method: 'POST',
        path: '/api/articles',
        body: JSON.stringify({
          data: {
            title: 'Bench [<id>]', slug: 'bench-[<id>]', description: 'A benchmark article.', views: 3,
            author: docId('author', 7), categories: [docId('category', 3), docId('category', 9)], cover: 1,
            seo: { metaTitle: 'Bench', metaDescription: 'A benchmark article.' },
          },
        }),
      },
    ],
  },
  {
    name: 'update article',
    requests: () => Array.from({ length: 20 }, (_, i) => ({ method: 'PUT', path: `/api/articles/${docId('article', 1 + i * 37)}`, body: JSON.stringify({ data: { title: 'Edited [<id>]' } }) })),
  },
  {
    name: 'update + filtered list',
    requests: () =>
      Array.from({ length: 10 }, (_, i) => [
        { method: 'PUT', path: `/api/articles/${docId('article', 2 + i * 41)}`, body: JSON.stringify({ data: { title: 'Edited [<id>]' } }) },
        { method: 'GET', path: '/api/articles?filters[views][$gte]=5000&sort=title:desc&pagination[pageSize]=10' },
      ]).flat(),
  },
];

interface Target extends WriteServer {
  dir: string;
}

async function start(name: string, checkout: string, size: number, kind: string): Promise<Target> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cr-bench-writes-'));
  return { ...(await startWriteServer(name, checkout, size, kind, dir)), dir };
}

async function stop(target: Target): Promise<void> {
  await stopWriteServer(target);
  fs.rmSync(target.dir, { recursive: true, force: true });
}

async function measure(port: number, requests: Request[], token: string, seconds: { warmup: number; duration: number; connections: number }): Promise<{ rps: number; p50: number; p99: number; failures: number }> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const run = (duration: number) => autocannon({ url: `http://127.0.0.1:${port}`, connections: seconds.connections, duration, headers, requests, idReplacement: true, workers: 1 });
  if (seconds.warmup > 0) await run(seconds.warmup);
  const r = await run(seconds.duration);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failures: r.non2xx + r.errors + r.timeouts };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const sizes = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const seconds = { warmup: Number(process.env.BENCH_WARMUP ?? 1), duration: Number(process.env.BENCH_DURATION ?? 5), connections: Number(process.env.BENCH_CONNECTIONS ?? 10) };
  const kind = process.env.BENCH_ENGINE ?? 'file';
  const checkouts: [string, string][] = [['new', path.resolve(__dirname, '..')]];
  if (process.env.BENCH_OLD) checkouts.unshift(['old', path.resolve(process.env.BENCH_OLD)]);
  const token = loadBlogModel().permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;
  console.log(`bench:writes: engine ${kind}, ${checkouts.map(([n, p]) => `${n} = ${p}`).join(', ')}; ${rounds} rounds of ${seconds.duration} s, ${seconds.connections} connections, Node ${process.version}, ${os.cpus().length} CPUs`);
  const results = new Map<string, { rps: number; share: number; p50: number; p99: number }[]>();
  for (const size of sizes) {
    const targets: Target[] = [];
    try {
      const ceiling = await start('ceiling', 'ceiling', size, kind);
      targets.push(ceiling);
      for (const [name, checkout] of checkouts) targets.push(await start(name, checkout, size, kind));
      const ceilingRequests = SCENARIOS[0]!.requests();
      for (let round = 0; round < rounds; round++) {
        const top = await measure(ceiling.port, ceilingRequests, token, seconds);
        console.log(`${size} round ${round + 1}: ceiling ${top.rps.toFixed(0)} req/s`);
        for (const scenario of SCENARIOS) {
          const order = round % 2 ? targets.slice(1).reverse() : targets.slice(1);
          for (const target of order) {
            const r = await measure(target.port, scenario.requests(), token, seconds);
            if (r.failures > 0) console.log(`  ${target.name} ${scenario.name}: ${r.failures} failed requests`);
            const key = `${size}|${scenario.name}|${target.name}`;
            results.set(key, [...(results.get(key) ?? []), { rps: r.rps, share: r.rps / top.rps, p50: r.p50, p99: r.p99 }]);
            console.log(`  ${target.name.padEnd(3)} ${scenario.name.padEnd(38)} ${r.rps.toFixed(0).padStart(6)} req/s  ${(100 * r.rps / top.rps).toFixed(1).padStart(5)}% of ceiling  p50 ${r.p50} ms  p99 ${r.p99} ms`);
          }
        }
      }
    } finally {
      for (const target of targets) await stop(target);
    }
  }
  console.log('\nmedians over the rounds: req/s (share of the ceiling), p99');
  const names = checkouts.map(([n]) => n);
  for (const scenario of SCENARIOS) {
    for (const name of names) {
      const cells = sizes.map((size) => {
        const rs = results.get(`${size}|${scenario.name}|${name}`) ?? [];
        return { size, rps: median(rs.map((r) => r.rps)), share: median(rs.map((r) => r.share)), p99: median(rs.map((r) => r.p99)) };
      });
      const text = cells.map((c) => `${c.size}: ${c.rps.toFixed(0)} req/s (${(100 * c.share).toFixed(1)}%), p99 ${c.p99} ms`).join('; ');
      const slowdown = cells.length > 1 ? `; slowdown ${sizes[sizes.length - 1]} / ${sizes[0]}: ${(cells[0]!.rps / cells[cells.length - 1]!.rps).toFixed(2)}x` : '';
      console.log(`${scenario.name} [${name}] ${text}${slowdown}`);
    }
    if (names.length === 2) {
      // Each round's new / old (both measured in that round, one after the other), then their median.
      const ratio = sizes.map((size) => {
        const [olds, news] = ['old', 'new'].map((n) => results.get(`${size}|${scenario.name}|${n}`) ?? []);
        const perRound = news!.map((r, i) => r.rps / olds![i]!.rps);
        return `${size}: ${median(perRound).toFixed(2)}x (rounds ${perRound.map((x) => x.toFixed(2)).join(', ')})`;
      });
      console.log(`${scenario.name}: new / old, median of the rounds ${ratio.join('; ')}`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
