/**
 * `npm run bench:attack`: sends the hostile shapes of bench/attack-shapes.ts one at a time to the example app
 * (memory engine, in this process) holding the conformance corpus's data, then 100,000 articles (bench/seed-blog),
 * and prints, per request (each sent twice: cold, then warm), the status, the time, the response bytes, the
 * process's worst event-loop delay while it ran (`perf_hooks.monitorEventLoopDelay`) and the engine's aggregates
 * (the join count's steps, documents/join-budget, + the reads: on MongoDB the read is what the server builds before
 * the router can count a row). Not a test: the figures depend on the machine. See docs/security.md, "Hostile requests".
 *
 * Environment: ATTACK_SIZES (default "corpus,100000"), ATTACK_TIMEOUT (ms per request, default 120000),
 * ATTACK_ONLY (substrings of the shape names to run, separated by `|`). With MONGODB_URI (and MONGODB_TRANSACTIONS,
 * as `npm start`: examples/blog/mongo-from-env), the app runs on MongoDB instead, in a database of its own
 * (`content_router_attack_<random>`, dropped at the end): the time is then mostly the server's, bounded by
 * `maxTimeMS` (one budget per request), and the event-loop delay the router's own.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Express } from 'express';
import { createBlogApp } from '../examples/blog/app';
import { blogTokens } from '../__tests__/helpers/conformance/start-blog-app';
import { loadCorpus } from '../__tests__/helpers/conformance/load';
import { replayCorpus } from '../__tests__/helpers/conformance/replay-corpus';
import { randomBytes } from 'node:crypto';
import { memoryEngine, mongoEngine, type Engine } from '../lib';
import { mongoOptionsFromEnv } from '../examples/blog/mongo-from-env';
import { withDatabase } from '../__tests__/helpers/test-engine';
import { ATTACK_SHAPES, type AttackShape } from './attack-shapes';
import { seedBlog } from './seed-blog';

interface Measure {
  status: number | string;
  ms: number;
  bytes: number;
  worstDelayMs: number;
  message: string;
  /** `<join count steps> + <reads>` the request made (see {@link counted}). */
  aggregates: string;
}

/**
 * The aggregates of the request running now: join count steps (they `$unwind` pairs numbered by join), fan-out
 * statistics (their largest `m`: pipeline/compile-fan-out) and reads (neither).
 */
const made = { steps: 0, statistics: 0, reads: 0 };

/** `engine`, its aggregates counted in {@link made}. */
function counted(engine: Engine): Engine {
  return new Proxy(engine, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key !== 'aggregate') return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      return (collection: string, pipeline: Record<string, unknown>[], options?: object) => {
        if (pipeline.some((stage) => JSON.stringify(stage.$unwind ?? null).includes('"includeArrayIndex":"n"'))) made.steps++;
        else if (JSON.stringify(pipeline.slice(-2)) === '[{"$sort":{"m":-1}},{"$limit":1}]') made.statistics++;
        else made.reads++;
        return target.aggregate(collection, pipeline, options);
      };
    },
  });
}

const TIMEOUT = Number(process.env.ATTACK_TIMEOUT ?? 120_000);

/** Reads the body without keeping it (a hostile answer may be gigabytes). */
async function drain(res: Response): Promise<{ bytes: number; head: string }> {
  let bytes = 0;
  let head = '';
  const reader = res.body?.getReader();
  for (;;) {
    const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
    if (chunk.done) break;
    if (head.length < 400) head += Buffer.from(chunk.value).toString('utf8', 0, 400);
    bytes += chunk.value.byteLength;
  }
  return { bytes, head };
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

async function send(base: string, shape: AttackShape, token: string): Promise<Measure> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const body = shape.body?.();
  const headers: Record<string, string> = shape.token ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  histogram.enable();
  await settle(); // the histogram measures from its timer's first tick: let it tick before the request
  made.steps = 0;
  made.statistics = 0;
  made.reads = 0;
  const aggregates = (): string => `${made.steps} + ${made.reads}${made.statistics > 0 ? ` (+ ${made.statistics} statistics)` : ''}`;
  const started = performance.now();
  try {
    const res = await fetch(base + shape.path, { method: shape.method, headers, body, signal: AbortSignal.timeout(TIMEOUT) });
    const { bytes, head } = await drain(res);
    const ms = performance.now() - started;
    await settle(); // the delay of the last block is recorded when the histogram's timer fires after it
    const message = (/"message":"((?:[^"\\]|\\.)*)"/.exec(head)?.[1] ?? '').replace(/\\(.)/g, '$1');
    return { status: res.status, ms, bytes, worstDelayMs: histogram.max / 1e6, message, aggregates: aggregates() };
  } catch (error) {
    await settle();
    return { status: `error (${(error as Error).name})`, ms: performance.now() - started, bytes: 0, worstDelayMs: histogram.max / 1e6, message: String((error as Error).message), aggregates: aggregates() };
  } finally {
    histogram.disable();
  }
}

async function listen(app: Express): Promise<{ server: Server; base: string }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The example app on a free port, loaded with the corpus (replayed over HTTP) or `size` generated articles. */
async function startApp(size: string): Promise<{ base: string; close(): Promise<void> }> {
  const store = openEngine();
  const engine = counted(store.engine);
  const blog = await createBlogApp({ seed: false, engine });
  const { server, base } = await listen(blog.app);
  const started = Date.now();
  if (size === 'corpus') {
    await replayCorpus(loadCorpus(), base, blogTokens());
  } else {
    await seedBlog(engine, { articles: Number(size), authors: 10_000, categories: 1_000, files: 100 });
  }
  console.log(`\n## ${size === 'corpus' ? 'conformance corpus data' : `${size} articles`}, ${store.label} (loaded in ${Date.now() - started} ms)\n`);
  return { base, close: async () => { server.closeAllConnections(); server.close(); await blog.close(); await store.drop(); } };
}

/** The memory engine, or MongoDB in a database of its own when MONGODB_URI is set (dropped by `drop`). */
function openEngine(): { engine: Engine; label: string; drop(): Promise<void> } {
  const uri = process.env.MONGODB_URI;
  if (!uri) return { engine: memoryEngine({ ephemeral: true }), label: 'memory engine', drop: async () => undefined };
  const database = `content_router_attack_${randomBytes(4).toString('hex')}`;
  const options = mongoOptionsFromEnv({ ...process.env, MONGODB_URI: withDatabase(uri, database) })!;
  const drop = async (): Promise<void> => {
    const { createConnection } = await import('mongoose');
    const connection = await createConnection(options.uri!).asPromise();
    try {
      await connection.dropDatabase();
    } finally {
      await connection.close();
    }
  };
  return { engine: mongoEngine(options), label: `MongoDB (database ${database})`, drop };
}

const row = (cells: readonly (string | number)[]): string => `| ${cells.join(' | ')} |`;

async function main(): Promise<void> {
  const sizes = (process.env.ATTACK_SIZES ?? 'corpus,100000').split(',').map((s) => s.trim()).filter(Boolean);
  const only = process.env.ATTACK_ONLY;
  const token = blogTokens().fullToken;
  for (const size of sizes) {
    const app = await startApp(size);
    console.log(row(['request', 'status', 'time (ms), 1st / 2nd', 'response bytes', 'worst event-loop delay (ms), 1st / 2nd', 'aggregates: count steps + reads, 2nd', 'message']));
    console.log(row(['---', '---', '---:', '---:', '---:', '---:', '---']));
    for (const shape of ATTACK_SHAPES) {
      if (only && !only.split('|').some((part) => shape.name.includes(part))) continue;
      // Twice: the first time may build the memory engine's lazy indexes and compile code; the second is warm.
      const m = await send(app.base, shape, token);
      const again = await send(app.base, shape, token);
      const status = m.status === again.status ? m.status : `${m.status} / ${again.status}`;
      const pair = (a: number, b: number, digits: number): string => `${a.toFixed(digits)} / ${b.toFixed(digits)}`;
      console.log(row([shape.name, status, pair(m.ms, again.ms, 0), m.bytes, pair(m.worstDelayMs, again.worstDelayMs, 0), again.aggregates, m.message.slice(0, 90).replace(/\|/g, '\\|')]));
    }
    await app.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
