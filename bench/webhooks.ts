/**
 * `npm run bench:webhooks`: what webhooks cost the writes that cause them. The example app on the embedded engine
 * persisted to a file (every write fsynced, as in production) takes WRITES category creations from CONCURRENCY
 * writers over HTTP, in four settings: no webhook; a webhook whose receiver answers at once; one whose receiver
 * answers after SLOW_MS; one whose receiver never answers (each call ends at the 10 s timeout). Prints the writes
 * per second, the median and 99th percentile write latency, the process's heap and RSS after the run, and how many
 * deliveries were done and still pending when the writes ended. Not a test: the figures depend on the machine.
 * See docs/webhooks.md, "What it costs".
 *
 * Environment: WRITES (default 1500), CONCURRENCY (default 8), SLOW_MS (default 200).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createBlogApp } from '../examples/blog/app';
import { blogTokens } from '../__tests__/helpers/conformance/start-blog-app';
import { memoryEngine } from '../lib';

const WRITES = Number(process.env.WRITES ?? 1500);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const SLOW_MS = Number(process.env.SLOW_MS ?? 200);

type Receiver = 'none' | 'fast' | 'slow' | 'hanging';

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** A receiver that reads the body, then answers 200 after `delayMS` (or never). */
function receiver(kind: Receiver): Server {
  return createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (kind === 'hanging') return;
      setTimeout(() => res.end('ok'), kind === 'slow' ? SLOW_MS : 0);
    });
  });
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function run(kind: Receiver): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-webhooks-'));
  const hook = kind === 'none' ? undefined : receiver(kind);
  const hookUrl = hook ? `${await listen(hook)}/hook` : '';
  const engine = memoryEngine({ file: path.join(dir, 'content.db') });
  const blog = await createBlogApp({ seed: false, engine, uploadsDir: dir, webhookUrl: hookUrl, webhookSettings: { maxAttempts: 1 } });
  const server = blog.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const token = blogTokens().fullToken;
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const writer = async (): Promise<void> => {
    while (next < WRITES) {
      const i = next++;
      const t0 = performance.now();
      const res = await fetch(`${base}/api/categories`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ data: { name: `Category ${i}`, description: 'benchmark' } }),
      });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`write ${i}: ${res.status}`);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, writer));
  const seconds = (performance.now() - started) / 1000;
  const memory = process.memoryUsage();
  const deliveries = kind === 'none' ? [] : await blog.router.webhooks.deliveries({ limit: WRITES });
  const done = deliveries.filter((d) => d.state !== 'pending').length;
  const pending = deliveries.length - done;
  latencies.sort((a, b) => a - b);
  server.closeAllConnections();
  server.close();
  hook?.closeAllConnections();
  hook?.close();
  await Promise.race([blog.close(), new Promise((resolve) => setTimeout(resolve, 100))]); // a hanging call is not awaited
  rmSync(dir, { recursive: true, force: true });
  const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(0)} MB`;
  return `| ${kind} | ${(WRITES / seconds).toFixed(0)} | ${percentile(latencies, 0.5).toFixed(1)} | ${percentile(latencies, 0.99).toFixed(1)} | ${mb(memory.heapUsed)} | ${mb(memory.rss)} | ${kind === 'none' ? '-' : `${done} / ${pending}`} |`;
}

async function main(): Promise<void> {
  console.log(`${WRITES} category creations, ${CONCURRENCY} writers, memory engine on a file; slow receiver: ${SLOW_MS} ms\n`);
  console.log('| receiver | writes/s | p50 ms | p99 ms | heap | rss | deliveries done / pending at the end |');
  console.log('|---|---|---|---|---|---|---|');
  for (const kind of ['none', 'fast', 'slow', 'hanging'] as const) console.log(await run(kind));
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
