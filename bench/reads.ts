/**
 * `npm run bench:reads`: the uncached reads of issue 31 (the read-only token's tree, the 3-level categories chain,
 * `populate=*` list and findOne, the default list, a relation filter), this checkout against another one in one
 * run. Each checkout's example app runs in a process of its own (bench/write-server.ts, memory engine without a
 * file), seeded by bench/seed-blog.ts; autocannon loads it from a worker thread of this process. Each round
 * measures, per scenario, every checkout one after the other (their order alternating per round), and prints the
 * median of each round's new / old: on this shared machine only a ratio taken within a few seconds means much.
 * Besides req/s, it reads each server's CPU time (user + system, from /proc on Linux) around each measurement and
 * prints the CPU time per request: when other jobs take the cores, req/s follows them, CPU time per request much
 * less (it still moves with cache and frequency effects).
 *
 * Environment: `BENCH_OLD` (a checkout of the code to compare with: `git worktree add --detach /tmp/old 1ac6d03`
 * and `ln -s $PWD/node_modules /tmp/old/node_modules`; without it, only this checkout is measured),
 * `BENCH_SIZES` (default `1000`), `BENCH_ROUNDS` (default 5), `BENCH_DURATION` (seconds, default 3),
 * `BENCH_CEILING=1` (also measures the ceiling: a bare Express app in a process of its own that answers each
 * scenario's path with the bytes this checkout answered, sent with `res.send` as any Express route would; its CPU
 * time per request divided by a checkout's is that checkout's share of the ceiling),
 * `BENCH_WARMUP` (seconds, default 1), `BENCH_CONNECTIONS` (default 10), `BENCH_ONLY` (a substring of the
 * scenario names to run).
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBlogModel } from '../examples/blog/model';
import { startWriteServer, stopWriteServer, type WriteServer } from './write-server-process';

type Autocannon = (options: Record<string, unknown>) => Promise<{ requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number }>;
const autocannon = require('autocannon') as Autocannon;

const tokens = loadBlogModel().permissions.apiTokens;
const FULL = tokens.find((t) => t.type === 'full-access')!.accessKey;
const READ_ONLY = tokens.find((t) => t.type === 'read-only')!.accessKey;
const docId = (prefix: string, n: number): string => `${prefix}-${n.toString(36).padStart(6, '0')}`;

/** The measured reads: a path (given the article count) and the API token it is sent with. */
const SCENARIOS: readonly { name: string; path: (articles: number) => string; token: string }[] = [
  { name: 'read-only token tree', token: READ_ONLY, path: () => '/api/articles?populate[author][populate]=avatar&populate[categories]=true&populate[seo]=true' },
  { name: '3-level categories chain', token: FULL, path: () => '/api/articles?populate[author][populate][avatar]=true&populate[categories][populate][parent][populate][parent]=true' },
  { name: 'list populate=*', token: FULL, path: () => '/api/articles?populate=*' },
  { name: 'findOne populate=*', token: FULL, path: (n) => `/api/articles/${docId('article', Math.ceil(n / 2))}?populate=*` },
  { name: 'list default', token: FULL, path: () => '/api/articles' },
  { name: 'relation filter+sort+page 3', token: FULL, path: () => '/api/articles?filters[author][name][$startsWith]=Author%201&sort=title:desc&pagination[page]=3' },
];

type Target = WriteServer;

const start = (name: string, checkout: string, size: number): Promise<Target> => startWriteServer(name, checkout, size, 'ephemeral', os.tmpdir());
const stop = stopWriteServer;

async function fetchBytes(port: number, urlPath: string, token: string): Promise<Buffer> {
  const res = await fetch(`http://127.0.0.1:${port}${urlPath}`, { headers: { authorization: `Bearer ${token}` } });
  const body = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw new Error(`${urlPath}: ${res.status} ${body.toString('utf8').slice(0, 300)}`);
  return body;
}

/** CPU time (user + system, ms) the process has used so far, from /proc (Linux): undefined elsewhere. */
function cpuTime(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (USER_HZ, 100 on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** req/s, and the server's CPU time per request (ms): on a shared machine, CPU time moves far less than req/s. */
async function measure(target: Target, urlPath: string, token: string, o: { warmup: number; duration: number; connections: number }): Promise<{ rps: number; cpu: number | undefined; failures: number }> {
  const run = (duration: number) => autocannon({ url: `http://127.0.0.1:${target.port}${urlPath}`, connections: o.connections, duration, headers: { authorization: `Bearer ${token}` }, workers: 1 });
  if (o.warmup > 0) await run(o.warmup);
  const before = cpuTime(target.child.pid!);
  const r = await run(o.duration);
  const after = cpuTime(target.child.pid!);
  const cpu = before === undefined || after === undefined || r.requests.total === 0 ? undefined : (after - before) / r.requests.total;
  return { rps: r.requests.average, cpu, failures: r.non2xx + r.errors + r.timeouts };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const sizes = (process.env.BENCH_SIZES ?? '1000').split(',').map(Number);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const o = { warmup: Number(process.env.BENCH_WARMUP ?? 1), duration: Number(process.env.BENCH_DURATION ?? 3), connections: Number(process.env.BENCH_CONNECTIONS ?? 10) };
  const scenarios = SCENARIOS.filter((s) => s.name.includes(process.env.BENCH_ONLY ?? ''));
  const checkouts: [string, string][] = [['new', path.resolve(__dirname, '..')]];
  if (process.env.BENCH_OLD) checkouts.unshift(['old', path.resolve(process.env.BENCH_OLD)]);
  console.log(`bench:reads: ${checkouts.map(([n, p]) => `${n} = ${p}`).join(', ')}; ${rounds} rounds of ${o.duration} s, ${o.connections} connections, Node ${process.version}, ${os.cpus().length} CPUs`);
  for (const size of sizes) {
    const targets: Target[] = [];
    const results = new Map<string, number[]>();
    try {
      for (const [name, checkout] of checkouts) targets.push(await start(name, checkout, size));
      const answers: Record<string, string> = {};
      for (const s of scenarios) {
        const bytes = await Promise.all(targets.map((t) => fetchBytes(t.port, s.path(size), s.token)));
        if (new Set(bytes.map((b) => b.length)).size > 1) console.log(`  ${s.name}: the checkouts answer ${bytes.map((b) => b.length).join(' / ')} bytes`);
        answers[s.path(size)] = bytes.at(-1)!.toString('base64');
      }
      if (process.env.BENCH_CEILING === '1') {
        const file = path.join(os.tmpdir(), `bench-reads-ceiling-${process.pid}.json`);
        fs.writeFileSync(file, JSON.stringify(answers));
        targets.push(await startWriteServer('ceiling', 'read-ceiling', size, file, os.tmpdir()));
      }
      for (let round = 0; round < rounds; round++) {
        const line: string[] = [];
        for (const s of scenarios) {
          const order = round % 2 ? [...targets].reverse() : targets;
          for (const target of order) {
            const r = await measure(target, s.path(size), s.token, o);
            if (r.failures > 0) console.log(`  ${target.name} ${s.name}: ${r.failures} failed requests`);
            for (const [figure, value] of [['rps', r.rps], ['cpu', r.cpu]] as const) {
              const key = `${s.name}|${target.name}|${figure}`;
              if (value !== undefined) results.set(key, [...(results.get(key) ?? []), value]);
            }
          }
          const last = (t: Target, figure: string) => results.get(`${s.name}|${t.name}|${figure}`)?.at(-1);
          line.push(`${s.name} ${targets.map((t) => `${last(t, 'rps')!.toFixed(0)} (${last(t, 'cpu')?.toFixed(3) ?? '?'} ms)`).join('/')}`);
        }
        console.log(`${size} round ${round + 1}, req/s (CPU ms per request) ${targets.map((t) => t.name).join('/')}: ${line.join('; ')}`);
      }
    } finally {
      for (const target of targets) await stop(target);
    }
    console.log(`\n${size} articles: medians over the rounds of req/s and of the server's CPU time per request${checkouts.length > 1 ? '; new / old: the median of each round\'s ratio (req/s: new / old; CPU: old / new, so that above 1 is faster either way)' : ''}`);
    for (const s of scenarios) {
      const get = (name: string, figure: string) => results.get(`${s.name}|${name}|${figure}`) ?? [];
      const ratio = (figure: string, invert: boolean): string => {
        const news = get('new', figure);
        const olds = get('old', figure);
        const perRound = news.map((n, i) => (invert ? olds[i]! / n : n / olds[i]!));
        return `${median(perRound).toFixed(2)}x (${perRound.map((x) => x.toFixed(2)).join(', ')})`;
      };
      const cells = checkouts.map(([name]) => `${name} ${median(get(name, 'rps')).toFixed(0)} req/s, ${get(name, 'cpu').length ? median(get(name, 'cpu')).toFixed(3) : '?'} ms CPU`);
      const ratios = checkouts.length > 1 ? `; new / old: req/s ${ratio('rps', false)}${get('new', 'cpu').length ? `, CPU ${ratio('cpu', true)}` : ''}` : '';
      const ceiling = get('ceiling', 'cpu');
      const share = ceiling.length ? `; share of the ceiling (${median(ceiling).toFixed(3)} ms CPU): ${checkouts.map(([name]) => `${name} ${(100 * median(get(name, 'cpu').map((c, i) => ceiling[i]! / c))).toFixed(0)}%`).join(', ')}` : '';
      console.log(`  ${s.name.padEnd(28)} ${cells.join('; ')}${ratios}${share}`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
