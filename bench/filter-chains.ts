/**
 * `npx ts-node --transpile-only bench/filter-chains.ts`: times a chain of relation filters
 * (`GET /api/articles?filters[author][articles]...[author][name][$eq]=x${n}`, 1 to CHAIN_PAIRS pairs, default 5) and
 * the same chain in a populate's filters, on the example app holding the conformance corpus's data (memory engine,
 * read-only token), on two engines: with the memory engine's semi-joins switched off (`disabledFastPaths`: the
 * execution before issue 29) and on. Each request is sent once, with a value of its own (a kept result of a stable
 * scope answers the same filter again at once: an attacker varies it); the worst event-loop delay of each row is
 * printed too. Not a test: the figures depend on the machine (docs/performance.md).
 */
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createBlogApp } from '../examples/blog/app';
import { blogTokens } from '../__tests__/helpers/conformance/start-blog-app';
import { loadCorpus } from '../__tests__/helpers/conformance/load';
import { replayCorpus } from '../__tests__/helpers/conformance/replay-corpus';
import { memoryEngine } from '../lib';

const PAIRS = Number(process.env.CHAIN_PAIRS ?? 5);
const SEMI_JOINS = ['relation-filter-semi-join', 'semi-join-lookup'];

async function timed(base: string, path: string, token: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

async function run(label: string, disabledFastPaths: string[]): Promise<void> {
  const engine = memoryEngine({ ephemeral: true, disabledFastPaths });
  const blog = await createBlogApp({ seed: false, engine });
  const server = blog.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await replayCorpus(loadCorpus(), base, blogTokens());
  const token = blogTokens().readonlyToken;
  const shapes = {
    filters: (n: number) => `/api/articles?filters${'[author][articles]'.repeat(n)}[author][name][$eq]=x${n}`,
    'populate filters': (n: number) => `/api/authors?populate[articles][filters]${'[author][articles]'.repeat(n)}[title][$eq]=x${n}`,
  };
  for (const [name, path] of Object.entries(shapes)) {
    const cells: string[] = [];
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    for (let n = 1; n <= PAIRS; n++) {
      const { status, ms } = await timed(base, path(n), token);
      cells.push(`${ms.toFixed(ms < 10 ? 1 : 0)}${status === 200 ? '' : ` (${status})`}`);
    }
    delay.disable();
    console.log(`| ${label} | ${name} | ${cells.join(' | ')} | ${(delay.max / 1e6).toFixed(0)} |`);
  }
  server.closeAllConnections();
  server.close();
  await blog.close();
}

async function main(): Promise<void> {
  const pairs = Array.from({ length: PAIRS }, (_, i) => `${i + 1} pair${i > 0 ? 's' : ''} (ms)`);
  console.log(`| engine | shape | ${pairs.join(' | ')} | worst event-loop delay (ms) |`);
  console.log(`| --- | --- | ${pairs.map(() => '---:').join(' | ')} | ---: |`);
  await run('semi-joins off (before)', SEMI_JOINS);
  await run('semi-joins on', []);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
