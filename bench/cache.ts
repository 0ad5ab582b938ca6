/**
 * `npm run bench:cache`: the response cache (`responseCache`, docs/caching.md) measured as `npm run bench` measures
 * the uncached reads: the in-process blog app (memory engine, the full-access API token), autocannon in a worker
 * thread, every figure a share of the bare-Express ceiling measured in the same round (see bench/run.ts).
 *
 * At 1,000 articles, per round: the ceiling (a bare Express route sending the bytes of the `populate=*` list), the
 * `populate=*` list from the cache, the same request with `If-None-Match` (a 304 from the cache), the same list on
 * an app without the cache, and a mixed workload on both apps: each connection sends, in a loop, 200 requests of
 * which 180 are reads of 200 distinct URLs (lists, pages, findOne, populates, the other types) and 20 are writes
 * (PUT of an article, an author or a category, spread among the reads); its hit rate is the cache's hits over the
 * GETs the app answered.
 *
 * Then the memory check: 100,000 articles, `BENCH_CACHE_URLS` (default 3,000) reads of random URLs (findOne
 * `populate=*` of random articles, random `populate=*` list pages), 10 at a time; prints the cache's `size` and
 * `count` against its budget (64 MB, the example app's), and the heap, array buffers and RSS before and after.
 *
 * Environment: BENCH_ROUNDS (default 3), BENCH_DURATION (default 5), BENCH_WARMUP (default 1),
 * BENCH_CONNECTIONS (default 10), BENCH_CACHE_URLS (default 3000), BENCH_MEMORY (0 skips the memory check),
 * BENCH_SPEED (0 skips the measurements at 1,000 articles).
 */
import http from 'node:http';
import os from 'node:os';
import type { ResponseCache } from '../lib/cache/response-cache';
import { blogLoadOptions, close, envNumber, startCeiling, startSeededBlog } from './blog-server';
import { load, type LoadOptions, type LoadRequest, type LoadResult } from './load';
import { median } from './report';
import { docId, random } from './seed-blog';

const MAX_BYTES = 64 * 1024 * 1024; // examples/blog/app.ts with RESPONSE_CACHE=1

/** 200 distinct read URLs over every type of the blog, for 1,000 articles, 10,000 authors, 1,000 categories. */
function readUrls(rnd: () => number): string[] {
  const pick = (n: number): number => 1 + Math.floor(rnd() * n);
  const urls = new Set<string>();
  for (let page = 1; urls.size < 40; page++) urls.add(`/api/articles?populate=*&pagination[page]=${page}`);
  for (let page = 1; urls.size < 60; page++) urls.add(`/api/articles?pagination[page]=${page}&sort=title:asc`);
  while (urls.size < 110) urls.add(`/api/articles/${docId('article', pick(1000))}?populate=*`);
  while (urls.size < 150) urls.add(`/api/authors/${docId('author', pick(10_000))}?populate=avatar`);
  for (let page = 1; urls.size < 170; page++) urls.add(`/api/categories?pagination[page]=${page}&populate=parent`);
  while (urls.size < 198) urls.add(`/api/categories/${docId('category', pick(1000))}`);
  urls.add('/api/articles?filters[author][name][$startsWith]=Author%201').add('/api/authors');
  return [...urls];
}

/** The mixed workload: 200 requests, one write after every 9 reads (180 reads of `urls`, 20 writes). */
function mixedRequests(urls: readonly string[], rnd: () => number): LoadRequest[] {
  const json = { 'content-type': 'application/json' };
  const write = (i: number): LoadRequest => {
    const kind = i % 3;
    if (kind === 0) return { method: 'PUT', path: `/api/articles/${docId('article', 1 + Math.floor(rnd() * 1000))}`, headers: json, body: JSON.stringify({ data: { title: 'Edited [<id>]' } }) };
    if (kind === 1) return { method: 'PUT', path: `/api/authors/${docId('author', 1 + Math.floor(rnd() * 10_000))}`, headers: json, body: JSON.stringify({ data: { bio: 'Edited [<id>]' } }) };
    return { method: 'PUT', path: `/api/categories/${docId('category', 1 + Math.floor(rnd() * 1000))}`, headers: json, body: JSON.stringify({ data: { description: 'Edited [<id>]' } }) };
  };
  const order = urls.map((u) => ({ u, k: rnd() })).sort((a, b) => a.k - b.k).map((x) => x.u).slice(0, 180);
  const out: LoadRequest[] = [];
  order.forEach((path, i) => {
    out.push({ method: 'GET', path });
    if (i % 9 === 8) out.push(write(out.length));
  });
  return out;
}

/** The example app seeded with `articles`, with the response cache or without, and the GETs it answered. */
async function blogApp(articles: number, cached: boolean) {
  const app = await startSeededBlog(articles, { responseCache: cached });
  const gets = { count: 0 };
  app.server.on('request', (req: { method?: string }) => {
    if (req.method === 'GET') gets.count++;
  });
  return { ...app, gets };
}

/** The mixed workload on `base`: `requests` in a loop on each connection. */
async function mixed(base: string, requests: LoadRequest[], options: LoadOptions): Promise<LoadResult> {
  const r = await load(base, options, requests);
  if (r.failures > 0) console.log(`  mixed: ${r.failures} failed (non-2xx, errors, timeouts)`);
  return r;
}

async function speed(options: LoadOptions, rounds: number): Promise<void> {
  const cached = await blogApp(1000, true);
  const uncached = await blogApp(1000, false);
  const listPath = '/api/articles?populate=*';
  const first = await fetch(cached.base + listPath, { headers: options.headers });
  const body = Buffer.from(await first.arrayBuffer());
  const etag = first.headers.get('etag');
  if (!first.ok || !etag) throw new Error(`${listPath}: ${first.status}, ETag ${etag}`);
  // Not fetch: with If-None-Match it adds Cache-Control: no-cache (the Fetch standard), which skips the cache.
  const second = await new Promise<number>((resolve, reject) => {
    http.get(cached.base + listPath, { headers: { ...options.headers, 'if-none-match': etag } }, (res) => resolve(res.resume().statusCode!)).on('error', reject);
  });
  if (second !== 304 || cached.blog.router.responseCache?.hits !== 1) throw new Error(`expected a 304 from the cache, got ${second} (hits ${cached.blog.router.responseCache?.hits})`);
  const ceilingApp = await startCeiling(body);
  const requests = mixedRequests(readUrls(random(7)), random(11));
  const figures = new Map<string, number[]>();
  const note = (name: string, value: number | undefined): void => {
    if (value !== undefined && Number.isFinite(value)) figures.set(name, [...(figures.get(name) ?? []), value]);
  };
  const names = ['populate=* list from the cache', '304 from the cache', 'populate=* list, no cache', 'mixed 90/10, cache', 'mixed 90/10, no cache'];
  for (let round = 1; round <= rounds; round++) {
    const ceiling = await load(`${ceilingApp.base}/ceiling`, options);
    const results: LoadResult[] = [];
    results.push(await load(cached.base + listPath, options));
    results.push(await load(cached.base + listPath, { ...options, headers: { ...options.headers, 'if-none-match': etag } }));
    results.push(await load(uncached.base + listPath, options));
    const before = { hits: cached.blog.router.responseCache!.hits, gets: cached.gets.count };
    results.push(await mixed(cached.base, requests, options));
    const hitRate = (cached.blog.router.responseCache!.hits - before.hits) / (cached.gets.count - before.gets);
    results.push(await mixed(uncached.base, requests, options));
    note('ceiling req/s', ceiling.rps);
    note('ceiling CPU ms per request', ceiling.cpu);
    names.forEach((name, i) => {
      note(`${name}|rps`, results[i]!.rps / ceiling.rps);
      if (ceiling.cpu !== undefined && results[i]!.cpu !== undefined) note(`${name}|cpu`, ceiling.cpu / results[i]!.cpu);
    });
    note('mixed hit rate', hitRate);
    const text = names.map((name, i) => `${name} ${(100 * results[i]!.rps / ceiling.rps).toFixed(1)}%${results[i]!.cpu !== undefined && ceiling.cpu !== undefined ? ` (CPU ${(100 * ceiling.cpu / results[i]!.cpu).toFixed(1)}%)` : ''}`);
    console.log(`  round ${round}: ceiling ${ceiling.rps.toFixed(0)} req/s, ${ceiling.cpu?.toFixed(3) ?? '?'} ms CPU per request; ${text.join(', ')}; hit rate ${(100 * hitRate).toFixed(1)}%`);
  }
  const range = (values: number[]): string => `${(100 * median(values)).toFixed(1)}% (${(100 * Math.min(...values)).toFixed(1)}% to ${(100 * Math.max(...values)).toFixed(1)}%)`;
  console.log(`\n1000 articles, medians over the rounds (range): ceiling ${median(figures.get('ceiling req/s')!).toFixed(0)} req/s${figures.has('ceiling CPU ms per request') ? `, ${median(figures.get('ceiling CPU ms per request')!).toFixed(3)} ms CPU per request` : ''}`);
  console.log('  share of the ceiling: req/s, and CPU (the ceiling\'s CPU time per request / the scenario\'s)');
  for (const name of names) {
    const cpu = figures.get(`${name}|cpu`);
    console.log(`  ${name.padEnd(32)} req/s ${range(figures.get(`${name}|rps`)!)}${cpu ? `; CPU ${range(cpu)}` : ''}`);
  }
  console.log(`  mixed hit rate                   ${range(figures.get('mixed hit rate')!)}`);
  await close(ceilingApp.server);
  for (const app of [cached, uncached]) {
    await close(app.server);
    await app.blog.close();
  }
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const memory = (): string => {
  const m = process.memoryUsage();
  return `heap used ${mb(m.heapUsed)}, array buffers ${mb(m.arrayBuffers)}, rss ${mb(m.rss)}`;
};

async function memoryCheck(headers: Record<string, string>, urls: number): Promise<void> {
  const app = await blogApp(100_000, true);
  const cache = app.blog.router.responseCache as ResponseCache;
  const rnd = random(3);
  const url = (): string =>
    rnd() < 0.5 ? `/api/articles/${docId('article', 1 + Math.floor(rnd() * 100_000))}?populate=*` : `/api/articles?populate=*&pagination[page]=${1 + Math.floor(rnd() * 4000)}`;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  console.log(`\nmemory check: 100000 articles seeded; ${memory()}`);
  let sent = 0;
  let most = 0;
  const started = Date.now();
  const worker = async (): Promise<void> => {
    while (sent < urls) {
      sent++;
      const res = await fetch(app.base + url(), { headers });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${res.url}: ${res.status}`);
      most = Math.max(most, cache.size);
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
  gc?.();
  console.log(`  after ${urls} random URLs in ${((Date.now() - started) / 1000).toFixed(0)} s: cache size ${mb(cache.size)} (at most ${mb(most)} during the run) in ${cache.count} entries (${cache.recordedKeys} recorded keys, ${cache.indexed} in the reverse index), budget ${mb(MAX_BYTES)}: ${most <= MAX_BYTES ? 'within' : 'OVER'}; ${memory()}${gc ? '' : ' (run with --expose-gc for figures after a collection)'}`);
  // What the cache itself holds: the heap and array buffers (its bodies) that dropping every entry frees. The rest
  // of the heap's growth is the router's, with or without the cache (its parsed queries and compiled reads, kept
  // per query string, and what the memory engine keeps per stored row).
  if (gc) {
    const before = process.memoryUsage();
    const size = cache.size;
    cache.clear();
    // Array buffers are released after their Buffer objects are collected: collect, let it run, collect again.
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    const after = process.memoryUsage();
    const held = before.heapUsed - after.heapUsed + before.arrayBuffers - after.arrayBuffers;
    console.log(`  emptying the cache freed ${mb(held)} (heap ${mb(before.heapUsed - after.heapUsed)}, array buffers ${mb(before.arrayBuffers - after.arrayBuffers)}) against its size of ${mb(size)}: ${(100 * held / size).toFixed(1)}%; reverse index left: ${cache.indexed} keys; ${memory()}`);
  }
  await close(app.server);
  await app.blog.close();
}

async function main(): Promise<void> {
  const options = blogLoadOptions();
  const rounds = Math.max(1, Math.round(envNumber('BENCH_ROUNDS', 3)));
  console.log(`bench:cache: node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown cpu'} x${os.cpus().length}, ${options.connections} connections, ${rounds} rounds of ${options.duration} s`);
  if (process.env.BENCH_SPEED !== '0') await speed(options, rounds);
  if (process.env.BENCH_MEMORY !== '0') await memoryCheck(options.headers, envNumber('BENCH_CACHE_URLS', 3000));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
