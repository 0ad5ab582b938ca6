/**
 * `npm run bench:memory`: what the router keeps per distinct request (issue 31: "at 100,000 articles with random
 * URLs the cache stays within its byte budget", and nothing kept per distinct request grows without a byte bound).
 *
 * Runs the example blog app (memory engine, the full-access API token) twice, each in a process of its own (node
 * `--expose-gc`): without the response cache, then with a small one (`BENCH_CACHE_MB`, default 8 MB). Each seeds
 * `BENCH_ARTICLES` articles (default 100,000; bench/seed-blog.ts: 10,000 authors, 1,000 categories, 100 files),
 * sends a short warm-up of fixed URLs, collects the garbage, and then sends `BENCH_URLS` (default 2,000) random,
 * distinct URLs, 10 at a time: lists of articles, authors and categories with random filters (on fields, on
 * relations, nested, `$or`, `$in`), sorts, pages, page sizes, offsets, populates, fields, locales and statuses,
 * and findOnes with random populates. Every `BENCH_EVERY` URLs (default 500) it collects the garbage twice and
 * prints the heap used (and its growth since the warm-up), array buffers, and, with the cache, its counted `size`
 * (the most it reached during the interval) and entries against its budget. At the end, with the cache, the cache
 * is emptied and the garbage collected, which says what the rest of the router keeps.
 *
 * `BENCH_MODES` (default `off,cache`) picks the runs; `BENCH_SEED` the random URLs (default 1); `BENCH_SNAPSHOT`
 * (a path prefix) writes a heap snapshot after the warm-up and at each interval (for Chrome's DevTools).
 */
import { spawnSync } from 'node:child_process';
import { writeHeapSnapshot } from 'node:v8';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { memoryEngine } from '../lib';
import type { ResponseCache } from '../lib/cache/response-cache';
import { engineMemos } from '../lib/engine/memory/execution/memo-budget';
import { formatMemos } from '../lib/format/memo-budget';
import { createBlogApp } from '../examples/blog/app';
import { loadBlogModel } from '../examples/blog/model';
import { docId, random, seedBlog } from './seed-blog';

const num = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
};
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Random read URLs of the blog model seeded with `articles` articles (see the file's comment). */
export function randomUrls(rnd: () => number, articles: number): () => string {
  const int = (n: number): number => 1 + Math.floor(rnd() * n);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const some = <T>(list: readonly T[], most: number): T[] => list.filter(() => rnd() < most / list.length);
  const word = (): string => Math.floor(rnd() * 36 ** 3).toString(36).slice(0, 1 + Math.floor(rnd() * 3));
  const enc = encodeURIComponent;
  const articleFilters = [
    () => `filters[title][$containsi]=${word()}`,
    () => `filters[views][$gt]=${int(10_000)}`,
    () => `filters[views][$lt]=${int(10_000)}`,
    () => `filters[featured][$eq]=${rnd() < 0.5}`,
    () => `filters[author][name][$startsWith]=${enc(`Author ${int(10_000)}`)}`,
    () => `filters[categories][name][$eq]=${enc(`Category ${int(1000)}`)}`,
    () => `filters[categories][parent][name][$eq]=${enc(`Category ${int(1000)}`)}`,
    () => `filters[publishDate][$gte]=2026-0${int(3)}-${String(int(28)).padStart(2, '0')}`,
    () => `filters[$or][0][views][$lt]=${int(10_000)}&filters[$or][1][featured][$eq]=true`,
    () => `filters[slug][$in][0]=article-${int(articles)}&filters[slug][$in][1]=article-${int(articles)}`,
    () => `filters[documentId][$eq]=${docId('article', int(articles))}`,
  ];
  const sorts = ['title', 'views', 'publishDate', 'slug', 'createdAt', 'id'];
  const sort = (fields: readonly string[]): string[] =>
    some(fields, 1.2).slice(0, 2).map((field, i) => `sort[${i}]=${field}:${rnd() < 0.5 ? 'asc' : 'desc'}`);
  const page = (count: number): string => {
    const r = rnd();
    if (r < 0.6) return `pagination[page]=${int(Math.ceil(count / 25))}`;
    if (r < 0.85) return `pagination[page]=${int(50)}&pagination[pageSize]=${int(100)}`;
    return `pagination[start]=${int(count)}&pagination[limit]=${int(100)}`;
  };
  const articlePopulates = [
    '', '', 'populate=*', 'populate[author][populate]=avatar', 'populate[categories][fields][0]=name',
    'populate[0]=author&populate[1]=categories', 'populate[categories][populate]=parent', 'populate[seo]=true',
    'populate[blocks]=true', 'populate[cover]=true&populate[gallery]=true',
  ];
  const fields = (names: readonly string[]): string[] => some(names, 1.5).map((name, i) => `fields[${i}]=${name}`);
  const locale = (): string[] => [pick(['', '', 'locale=en', 'locale=fr'])];
  const status = (): string[] => [pick(['', '', '', 'status=draft', 'status=published'])];
  const join = (path: string, parts: string[]): string => {
    const query = parts.filter((p) => p !== '').join('&');
    return query === '' ? path : `${path}?${query}`;
  };
  return () => {
    const r = rnd();
    if (r < 0.6) {
      const filters = some(articleFilters, 1.5).map((f) => f());
      return join('/api/articles', [...filters, ...sort(sorts), page(articles), pick(articlePopulates), ...fields(['title', 'slug', 'views', 'featured', 'publishDate']), ...locale(), ...status()]);
    }
    if (r < 0.8) return join(`/api/articles/${docId('article', int(articles))}`, [pick(articlePopulates), ...fields(['title', 'views', 'description']), ...locale(), ...status()]);
    if (r < 0.9) {
      const filters = [`filters[articles][title][$containsi]=${word()}`, `filters[name][$startsWith]=${enc(`Author ${int(10_000)}`)}`].filter(() => rnd() < 0.6);
      return join('/api/authors', [...filters, ...sort(['name', 'email', 'id']), page(10_000), pick(['', 'populate=avatar', 'populate[articles][fields][0]=title']), ...fields(['name', 'email', 'bio'])]);
    }
    const filters = [`filters[name][$containsi]=${word()}`, `filters[parent][name][$eq]=${enc(`Category ${int(1000)}`)}`, `filters[articles][views][$gt]=${int(10_000)}`].filter(() => rnd() < 0.5);
    return join('/api/categories', [...filters, ...sort(['name', 'slug']), page(1000), pick(['', 'populate=parent', 'populate[children][fields][0]=name', 'populate=*']), ...locale()]);
  };
}

const gc = (globalThis as { gc?: () => void }).gc;

async function collect(): Promise<NodeJS.MemoryUsage> {
  if (!gc) throw new Error('bench:memory needs node --expose-gc (npm run bench:memory)');
  gc();
  // Array buffers are released after their Buffer objects are collected: collect, let it run, collect again.
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  return process.memoryUsage();
}

/** One run, in this process: `cacheMb` 0 is the app without the response cache. */
async function run(cacheMb: number): Promise<void> {
  const articles = num('BENCH_ARTICLES', 100_000);
  const total = num('BENCH_URLS', 2000);
  const every = Math.max(1, num('BENCH_EVERY', 500));
  const budget = cacheMb * 1024 * 1024;
  const engine = memoryEngine({ ephemeral: true });
  const blog = await createBlogApp({ seed: false, engine, responseCacheBytes: budget });
  await seedBlog(engine, { articles, authors: 10_000, categories: 1_000, files: 100 });
  const server: Server = blog.app.listen(0, '127.0.0.1');
  // The pauses for the collections (and heap snapshots) must not close the client's idle connections under it.
  server.keepAliveTimeout = 10 * 60 * 1000;
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const token = loadBlogModel().permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;
  const headers = { authorization: `Bearer ${token}` };
  const cache = blog.router.responseCache as ResponseCache | undefined;
  const statuses = new Map<number, number>();
  let most = 0;
  const send = async (urls: () => string, count: number): Promise<void> => {
    let sent = 0;
    const worker = async (): Promise<void> => {
      while (sent < count) {
        sent++;
        const res = await fetch(base + urls(), { headers });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) throw new Error(`${res.url}: ${res.status}`);
        if (cache) most = Math.max(most, cache.size);
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
  };
  // The warm-up: the code paths of each kind of read, so that what follows is what distinct URLs add.
  const fixed = ['/api/articles', '/api/articles?populate=*', `/api/articles/${docId('article', 1)}?populate=*`, '/api/authors?populate=avatar', '/api/categories?populate=parent'];
  let n = 0;
  await send(() => fixed[n++ % fixed.length]!, 50);
  const start = await collect();
  if (process.env.BENCH_SNAPSHOT) console.log(`  heap snapshot: ${writeHeapSnapshot(`${process.env.BENCH_SNAPSHOT}-${cacheMb}-0.heapsnapshot`)}`);
  console.log(`${cacheMb > 0 ? `response cache of ${cacheMb} MB` : 'no response cache'}: ${articles} articles seeded, heap used ${mb(start.heapUsed)}, array buffers ${mb(start.arrayBuffers)}, rss ${mb(start.rss)}`);
  const urls = randomUrls(random(num('BENCH_SEED', 1)), articles);
  const began = Date.now();
  let done = 0;
  let last = start;
  while (done < total) {
    const count = Math.min(every, total - done);
    most = 0;
    await send(urls, count);
    done += count;
    last = await collect();
    const memos = `; memos counted: engine ${mb(engineMemos.held)} (${engineMemos.turns} turns), writers ${mb(formatMemos.held)} (${formatMemos.turns} turns)`;
    const cached = cache ? `; cache size ${mb(cache.size)} (at most ${mb(most)}: ${most <= budget ? 'within' : 'OVER'} its budget), ${cache.count} entries` : '';
    console.log(`  ${String(done).padStart(6)} URLs, ${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s: heap used ${mb(last.heapUsed)} (+${mb(last.heapUsed - start.heapUsed)}), array buffers ${mb(last.arrayBuffers)} (+${mb(last.arrayBuffers - start.arrayBuffers)})${memos}${cached}`);
    if (process.env.BENCH_SNAPSHOT) console.log(`  heap snapshot: ${writeHeapSnapshot(`${process.env.BENCH_SNAPSHOT}-${cacheMb}-${done}.heapsnapshot`)}`);
  }
  console.log(`  statuses: ${[...statuses].sort(([a], [b]) => a - b).map(([s, c]) => `${s} x${c}`).join(', ')}`);
  // What the memos hold, against what they count: drop them all and collect.
  const counted = engineMemos.held + formatMemos.held;
  engineMemos.clear();
  formatMemos.clear();
  const dropped = await collect();
  console.log(`  the memos dropped: freed ${mb(last.heapUsed + last.arrayBuffers - dropped.heapUsed - dropped.arrayBuffers)} against ${mb(counted)} counted; heap used ${mb(dropped.heapUsed)} (+${mb(dropped.heapUsed - start.heapUsed)} since the warm-up)`);
  last = dropped;
  if (cache) {
    cache.clear();
    const emptied = await collect();
    console.log(`  the cache emptied: heap used ${mb(emptied.heapUsed)} (+${mb(emptied.heapUsed - start.heapUsed)} since the warm-up), array buffers ${mb(emptied.arrayBuffers)} (+${mb(emptied.arrayBuffers - start.arrayBuffers)}); the cache held ${mb(last.heapUsed + last.arrayBuffers - emptied.heapUsed - emptied.arrayBuffers)}`);
  }
  server.close();
  await blog.close();
}

function main(): void {
  const child = process.argv[2];
  if (child !== undefined) {
    run(Number(child)).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
    return;
  }
  const modes = (process.env.BENCH_MODES ?? 'off,cache').split(',');
  console.log(`bench:memory: node ${process.version}, ${num('BENCH_ARTICLES', 100_000)} articles, ${num('BENCH_URLS', 2000)} random URLs per run`);
  for (const mode of modes) {
    const cacheMb = mode === 'cache' ? num('BENCH_CACHE_MB', 8) : 0;
    const result = spawnSync(process.execPath, ['--expose-gc', '-r', 'ts-node/register/transpile-only', __filename, String(cacheMb)], { stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

main();
