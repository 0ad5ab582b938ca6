/**
 * `npx ts-node --transpile-only bench/profile.ts [path] [articles] [requests]`: sends requests one after the
 * other to an in-process blog app from a worker thread (so the client's work stays off the server's thread), after
 * a warm-up of `requests / 5`, and prints the mean time. With `PROFILE_OUT=file.cpuprofile`, the server thread is
 * profiled during the measured requests only (open the file in Chrome DevTools, or read the summary printed:
 * self time by function, per request). `node --cpu-prof` also works, but then profiles startup and seeding too.
 * With `PROFILE_CONNECTIONS=10`, the requests are sent by autocannon (bench/load.ts) with that many connections
 * for `requests` seconds instead, as in the benchmark.
 */
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { Worker } from 'node:worker_threads';
import { memoryEngine } from '../lib';
import { createBlogApp } from '../examples/blog/app';
import { loadBlogModel } from '../examples/blog/model';
import { load } from './load';
import { seedBlog } from './seed-blog';
import { summarizeProfile, type CpuProfile } from './summarize-profile';

const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
parentPort.on('message', async (n) => {
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const res = await fetch(workerData.url, { headers: workerData.headers });
    const body = await res.arrayBuffer();
    if (!res.ok) throw new Error(res.status + ' ' + Buffer.from(body).toString());
  }
  parentPort.postMessage(Number(process.hrtime.bigint() - started) / 1e6);
});`;

async function main(): Promise<void> {
  const [path = '/api/articles?populate=*', articles = '1000', requests = '200'] = process.argv.slice(2);
  const engine = memoryEngine({ ephemeral: true });
  const blog = await createBlogApp({ seed: false, engine });
  const data = await seedBlog(engine, { articles: Number(articles), authors: 10_000, categories: 1_000, files: 100 });
  const server = blog.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path.replace('$MIDDLE', data.middleArticle)}`;
  const token = loadBlogModel().permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;
  const worker = new Worker(CLIENT, { eval: true, workerData: { url, headers: { authorization: `Bearer ${token}` } } });
  const run = (n: number): Promise<number> =>
    new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage(n);
    });
  const connections = Number(process.env.PROFILE_CONNECTIONS ?? 0);
  const loadOptions = { connections, warmup: 0, headers: { authorization: `Bearer ${token}` } };
  let n = Number(requests);
  if (connections > 0) await load(url, { ...loadOptions, duration: 1 });
  else await run(Math.ceil(n / 5));
  const out = process.env.PROFILE_OUT;
  const session = new Session();
  if (out) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
  }
  if (connections > 0) {
    const result = await load(url, { ...loadOptions, duration: n });
    console.log(`${path}: ${result.rps.toFixed(0)} req/s with ${connections} connections (p50 ${result.p50} ms)`);
    n = Math.round(result.rps * n);
  } else {
    const elapsed = await run(n);
    console.log(`${path}: ${(elapsed / n).toFixed(3)} ms per request (sequential, client in a worker)`);
  }
  if (out) {
    const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
    fs.writeFileSync(out, JSON.stringify(profile));
    console.log(summarizeProfile(profile, n, Number(process.env.PROFILE_TOP ?? 30)));
  }
  await worker.terminate();
  server.close();
  await blog.close();
}

void main();
