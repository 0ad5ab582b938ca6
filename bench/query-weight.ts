/**
 * `node --expose-gc -r ts-node/register/transpile-only bench/query-weight.ts [shape]`: the calibration of the
 * query cache's byte estimate (lib/query/query-cache.ts: a fixed part plus a factor times `queryBytes`). For each
 * shape of query string, in a process of its own (the cache's bounds would drop one shape's queries for the
 * next): the example app at 2,000 articles, 10 warm-up requests, then 300 distinct query strings of that shape
 * (one row each), and the heap they added per query string (after collections), against `queryBytes` of one of
 * them. Prints the estimate next to it: it must be above the heap measured for every shape.
 */
import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { memoryEngine } from '../lib';
import { parseQuery, queryBytes } from '../lib/query';
import { createBlogApp } from '../examples/blog/app';
import { loadBlogModel } from '../examples/blog/model';
import { seedBlog } from './seed-blog';

const SHAPES: Record<string, (i: number) => string> = {
  'default list': (i) => `/api/articles?pagination[pageSize]=1&pagination[page]=${i}`,
  'populate=*': (i) => `/api/articles?populate=*&pagination[pageSize]=1&pagination[page]=${i}`,
  'relation filters + sort': (i) => `/api/articles?filters[author][name][$startsWith]=Author%201&filters[categories][parent][name][$eq]=x&sort[0]=views:desc&pagination[pageSize]=1&pagination[page]=${i}`,
  '3-level populate': (i) => `/api/articles?populate[author][populate][avatar]=true&populate[categories][populate][parent][populate][parent]=true&populate[seo][populate]=*&populate[blocks]=true&pagination[pageSize]=1&pagination[page]=${i}`,
  'findOne populate=*': (i) => `/api/articles/article-00000${(i % 9) + 1}?populate=*&fields[0]=title&x=${i}`,
  'fields + filter': (i) => `/api/articles?fields[0]=title&fields[1]=views&filters[views][$gt]=${i}&pagination[pageSize]=1`,
};
const COUNT = 300;

async function measure(shape: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  const collect = async (): Promise<number> => {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    return process.memoryUsage().heapUsed;
  };
  const url = SHAPES[shape]!;
  const engine = memoryEngine({ ephemeral: true });
  const blog = await createBlogApp({ seed: false, engine });
  await seedBlog(engine, { articles: 2000, authors: 1000, categories: 100, files: 20 });
  const server = blog.app.listen(0, '127.0.0.1');
  server.keepAliveTimeout = 10 * 60 * 1000;
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const headers = { authorization: `Bearer ${loadBlogModel().permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey}` };
  const get = async (path: string): Promise<void> => {
    const res = await fetch(base + path, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  };
  for (let i = 1; i <= 10; i++) await get(url(100_000 + i));
  const before = await collect();
  for (let i = 1; i <= COUNT; i++) await get(url(i));
  const added = ((await collect()) - before) / COUNT;
  const path = url(7);
  const rawQuery = path.slice(path.indexOf('?') + 1);
  const contentType = blog.router.registry.contentType('api::article.article');
  const action = path.startsWith('/api/articles?') ? 'find' : 'findOne';
  const bytes = queryBytes(parseQuery({ registry: blog.router.registry, contentType, rawQuery, context: { canFind: () => true }, rest: { defaultLimit: 25, maxLimit: 100 }, action }));
  const estimate = 4096 + 24 * bytes + 2 * (rawQuery.length + 6);
  console.log(`${shape.padEnd(24)} ${(added / 1024).toFixed(1).padStart(6)} KB per query string; queryBytes ${(bytes / 1024).toFixed(1)} KB, estimate ${(estimate / 1024).toFixed(1)} KB: ${estimate >= added ? 'above' : 'BELOW'}`);
  server.close();
  await blog.close();
}

const shape = process.argv[2];
if (shape !== undefined) {
  measure(shape).then(() => process.exit(0), (error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  for (const name of Object.keys(SHAPES)) {
    const result = spawnSync(process.execPath, ['--expose-gc', '-r', 'ts-node/register/transpile-only', __filename, name], { encoding: 'utf8' });
    process.stdout.write(result.stdout.split('\n').filter((line) => line.startsWith(name)).join('\n') + '\n');
    if (result.status !== 0) process.stderr.write(result.stderr);
  }
}
