/**
 * `npx ts-node --transpile-only bench/filter-chains.ts`: times a chain of relation filters
 * (`GET /api/articles?filters[author][articles]...[author][name][$eq]=x${n}`, 1 to CHAIN_PAIRS pairs, default 5) and
 * the same chain in a populate's filters, on the example app holding the conformance corpus's data (memory engine,
 * read-only token), on two engines: with the memory engine's semi-joins switched off (`disabledFastPaths`: the
 * execution before issue 29) and on. The join budget is raised (`rest.maxJoinedRows` 10^9) so that the engine runs
 * every chain: with the default (10,000) both engines refuse 2 pairs and more with a 400 before running them
 * (lib/documents/filter-budget; the populate filters are not counted). Each request is sent once, with a value of its own (a kept result of a stable
 * scope answers the same filter again at once: an attacker varies it); the worst event-loop delay of each row is
 * printed too. Not a test: the figures depend on the machine (docs/performance.md).
 */
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { loadBlogModel } from '../examples/blog/model';
import { blogTokens } from '../__tests__/helpers/conformance/start-blog-app';
import { loadCorpus } from '../__tests__/helpers/conformance/load';
import { replayCorpus } from '../__tests__/helpers/conformance/replay-corpus';
import { createContentRouter, memoryEngine, type Engine } from '../lib';

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
  const blog = await blogApp(engine);
  const server = blog.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await replayCorpus(loadCorpus(), base, blogTokens());
  if (label.includes('before')) console.error(`(${await engine.count('articles', {})} article rows, ${await engine.count('authors', {})} authors)`);
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

/** The example's model and API tokens (its permissions.json), every action public, the join budget raised. */
async function blogApp(engine: Engine): Promise<{ app: express.Express; close(): Promise<void> }> {
  const model = loadBlogModel();
  const router = createContentRouter({
    contentTypes: model.contentTypes, components: model.components, engine, upload: { directory: fs.mkdtempSync(path.join(os.tmpdir(), 'cr-chains-')) },
    i18n: { locales: model.permissions.locales.all, defaultLocale: model.permissions.locales.default },
    auth: { public: 'all', apiTokens: model.permissions.apiTokens.map((t) => ({ name: t.name, type: t.type, accessKey: t.accessKey })) },
    rest: { maxJoinedRows: 1_000_000_000 },
  });
  await router.ready;
  const app = express();
  app.use('/api', router);
  return { app, close: () => engine.close() };
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
