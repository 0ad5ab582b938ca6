/**
 * `npm run bench:list-after-write [articles] [rounds]`: the cost of a list read right after a write to the same
 * collection, on the memory engine (issue: a write used to drop every cached scope, so the next list rescanned and
 * resorted all the rows). Seeds the blog (bench/seed-blog.ts: two rows per article), then, per path, alternates
 * `PUT /api/articles/:documentId` (a title change: the draft row replaced, the published row recreated) with one
 * `GET` of the path, and also times the same `GET` with no write before it (warm). Requests are sent in process
 * (fetch) one after the other; each GET is timed from the client, wall clock and the process's CPU time (client
 * and server share the thread). Prints the means per GET after a write and warm, their ratio, and the PUT's. With `PROFILE_OUT=file.cpuprofile`, the writes and reads of the first path
 * are profiled (self time per write + read pair printed).
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Session } from 'node:inspector/promises';
import { memoryEngine } from '../lib';
import { createBlogApp } from '../examples/blog/app';
import { loadBlogModel } from '../examples/blog/model';
import { seedBlog } from './seed-blog';
import { summarizeProfile, type CpuProfile } from './summarize-profile';

const PATHS = [
  '/api/articles?pagination[pageSize]=10',
  '/api/articles?sort=title:desc&pagination[pageSize]=10',
  '/api/articles?status=draft&pagination[pageSize]=10',
];

async function main(): Promise<void> {
  const [articles = '100000', rounds = '40'] = process.argv.slice(2);
  const engine = memoryEngine({ ephemeral: true });
  const blog = await createBlogApp({ seed: false, engine });
  await seedBlog(engine, { articles: Number(articles), authors: 10_000, categories: 1_000, files: 100 });
  const server = blog.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const token = loadBlogModel().permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const send = async (path: string, init: RequestInit = {}): Promise<{ ms: number; cpu: number; body: unknown }> => {
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const res = await fetch(base + path, { ...init, headers });
    const body: unknown = await res.json();
    if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    const used = process.cpuUsage(cpu);
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, cpu: (used.user + used.system) / 1000, body };
  };
  const first = (await send('/api/articles?pagination[pageSize]=50')).body as { data: { documentId: string }[] };
  const ids = first.data.map((d) => d.documentId);
  const n = Number(rounds);
  console.log(`${articles} articles, ${n} rounds per path, Node ${process.version}`);
  const session = new Session();
  const out = process.env.PROFILE_OUT;
  for (const path of PATHS) {
    await send(path);
    if (out && path === PATHS[0]) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    const after = { ms: 0, cpu: 0 };
    const warm = { ms: 0, cpu: 0 };
    const write = { ms: 0, cpu: 0 };
    const add = (sum: { ms: number; cpu: number }, r: { ms: number; cpu: number }): void => {
      sum.ms += r.ms / n;
      sum.cpu += r.cpu / n;
    };
    for (let i = 0; i < n; i++) {
      const documentId = ids[i % ids.length]!;
      add(write, await send(`/api/articles/${documentId}`, { method: 'PUT', body: JSON.stringify({ data: { title: `Edited ${i}` } }) }));
      add(after, await send(path));
      add(warm, await send(path));
    }
    if (out && path === PATHS[0]) {
      const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
      fs.writeFileSync(out, JSON.stringify(profile));
      console.log(summarizeProfile(profile, n, 25));
    }
    const f = (x: { ms: number; cpu: number }): string => `${x.ms.toFixed(2)} ms (CPU ${x.cpu.toFixed(2)} ms)`;
    console.log(`${path}\n  after a write ${f(after)}, warm ${f(warm)}; after / warm ${(after.ms / warm.ms).toFixed(1)}x; the PUT ${f(write)}`);
  }
  server.close();
  await blog.close();
}

void main();
