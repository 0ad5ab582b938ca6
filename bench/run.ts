/**
 * `npm run bench`: loads an in-process blog app (memory engine) with autocannon at two data sizes and prints
 * req/s, p50 and p99 per scenario, each as a ratio to a bare Express route returning the same bytes as the
 * `populate=*` list (the ceiling), and the large/small slowdown. See docs/performance.md.
 *
 * The ceiling and the scenarios are measured in rounds (ceiling, then each scenario, again and again), and each
 * ratio is taken within a round: on a shared machine the speed drifts over a minute, and a ratio of two figures
 * measured a minute apart would mostly measure the drift. The table shows the median over the rounds and the
 * range of the req/s ratio.
 *
 * Environment: BENCH_ROUNDS (default 3), BENCH_DURATION (seconds per scenario and round, default 5),
 * BENCH_WARMUP (default 1), BENCH_CONNECTIONS (default 10), BENCH_SIZES (article counts, default
 * "1000,100000").
 */
import os from 'node:os';
import { blogLoadOptions, close, envNumber, startCeiling, startSeededBlog } from './blog-server';
import { load, type LoadOptions, type LoadResult } from './load';
import { formatSize, formatSlowdown, type RoundResult, type SizeResult } from './report';
import { CEILING_OF, SCENARIOS } from './scenarios';

async function fetchOk(url: string, headers: Record<string, string>): Promise<Buffer> {
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw new Error(`${url}: ${res.status} ${body.toString('utf8').slice(0, 300)}`);
  return body;
}

async function benchSize(articles: number, rounds: number, options: LoadOptions): Promise<SizeResult> {
  const app = await startSeededBlog(articles);
  console.log(`\nseeded ${articles} articles (2 rows each), 10000 authors, 1000 categories in ${app.seedMs} ms`);
  const urls = new Map<string, string>();
  let ceilingBytes: Buffer | undefined;
  for (const s of SCENARIOS) {
    const url = app.base + s.path(app.data);
    const body = await fetchOk(url, options.headers);
    if (s.name === CEILING_OF) ceilingBytes = body;
    urls.set(s.name, url);
    console.log(`  ${s.name}: ${body.length} bytes`);
  }
  const ceilingApp = await startCeiling(ceilingBytes ?? Buffer.alloc(0));
  const results: RoundResult[] = [];
  for (let round = 1; round <= rounds; round++) {
    const ceiling = await load(`${ceilingApp.base}/ceiling`, options);
    const scenarios = new Map<string, LoadResult>();
    for (const [name, url] of urls) scenarios.set(name, await load(url, options));
    results.push({ ceiling, scenarios });
    const figures = [...scenarios].map(([name, r]) => `${name} ${(100 * r.rps / ceiling.rps).toFixed(1)}%`).join(', ');
    console.log(`  round ${round}: ceiling ${ceiling.rps.toFixed(0)} req/s; ${figures}`);
  }
  await close(ceilingApp.server);
  await close(app.server);
  await app.blog.close();
  return { articles, rounds: results };
}

async function main(): Promise<void> {
  const options = blogLoadOptions();
  const sizes = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  const rounds = Math.max(1, Math.round(envNumber('BENCH_ROUNDS', 3)));
  console.log(`node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown cpu'} x${os.cpus().length}, ${options.connections} connections, ${rounds} rounds of ${options.duration} s per scenario`);
  const results: SizeResult[] = [];
  for (const size of sizes) results.push(await benchSize(size, rounds, options));
  console.log('');
  for (const r of results) console.log(`${formatSize(r)}\n`);
  const [small, large] = [results[0], results[results.length - 1]];
  if (small && large && small !== large) console.log(formatSlowdown(small, large));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
