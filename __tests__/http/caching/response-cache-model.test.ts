import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { createContentRouter, type ContentRouter, type ContentRouterOptions } from '../../../lib';
import type { Engine } from '../../../lib/engine';
import { loadBlogModel } from '../../../examples/blog/model';
import { seedDemo } from '../../../examples/blog/seed';
import { prng } from '../../helpers/prng';
import { testEngine } from '../../helpers/test-engine';
import { blogAuthOptions, FULL_KEY, READ_KEY } from '../auth/blog-auth-app';

/**
 * Never stale: seeded random writes (REST creates, updates, deletes, publishes, single types, locales, and the
 * Document Service) interleaved with reads of fixed URLs by several callers. Each read goes to a router with the
 * response cache and to one without, on the same engine: status, bytes and ETag must be identical. Writes go
 * through the cached router (the cache sees the writes of its own instance only, docs/caching.md).
 * CACHE_MODEL_SEED replays a seed; CACHE_MODEL_STEPS runs longer.
 */
const SEEDS = process.env.CACHE_MODEL_SEED ? [Number(process.env.CACHE_MODEL_SEED)] : [1, 2, 3];
const STEPS = Number(process.env.CACHE_MODEL_STEPS ?? 120);

interface Pair {
  cached: express.Express;
  plain: express.Express;
  router: ContentRouter;
  engine: Engine;
  close(): Promise<void>;
}

async function createPair(): Promise<Pair> {
  const model = loadBlogModel();
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'cache-model-'));
  const engine = testEngine();
  const options: ContentRouterOptions = {
    contentTypes: model.contentTypes,
    components: model.components,
    engine,
    i18n: { locales: model.permissions.locales.all, defaultLocale: model.permissions.locales.default },
    auth: blogAuthOptions(),
    upload: { directory: uploads },
    logger: false,
  };
  const router = createContentRouter({ ...options, responseCache: { maxBytes: 400_000 } });
  const cached = express().use('/api', router);
  await router.ready;
  await seedDemo(cached, FULL_KEY);
  const other = createContentRouter(options);
  await other.ready;
  const plain = express().use('/api', other);
  return { cached, plain, router, engine, close: async () => { await engine.close(); fs.rmSync(uploads, { recursive: true, force: true }); } };
}

const callers: Record<string, Record<string, string>> = {
  public: {},
  read: { authorization: `Bearer ${READ_KEY}` },
  full: { authorization: `Bearer ${FULL_KEY}` },
  v4: { 'strapi-response-format': 'v4' },
  preview: { 'strapi-encode-source-maps': 'true', authorization: `Bearer ${READ_KEY}` },
};

const URLS: [string, string][] = [
  ['public', '/api/articles'],
  ['public', '/api/articles?populate=*'],
  ['public', '/api/articles?populate[author][populate][avatar]=true&populate[categories]=true&populate[seo]=true'],
  ['read', '/api/articles?filters[author][name][$containsi]=a&sort=title'],
  ['read', '/api/articles?sort=title&filters[author][name][$containsi]=a'],
  ['public', '/api/articles?locale=fr&populate=author'],
  ['full', '/api/articles?status=draft&populate=*'],
  ['full', '/api/authors?populate=articles'],
  ['read', '/api/categories?populate[articles][populate][author]=true&populate[parent]=true'],
  ['public', '/api/categories?filters[articles][title][$containsi]=e'],
  ['public', '/api/global?populate=*'],
  ['public', '/api/global?locale=fr'],
  ['public', '/api/about?populate=*'],
  ['v4', '/api/articles?populate=author&pagination[pageSize]=3'],
  ['preview', '/api/articles?filters[author][name][$containsi]=a&sort=title'],
  ['preview', '/api/global?populate=*'],
  ['full', '/api/articles?fields[0]=title&pagination[page]=2&pagination[pageSize]=2'],
];

type Write = (pair: Pair, random: () => number, ids: () => Promise<Record<string, string[]>>) => Promise<string>;

/** A write of the model must succeed: a refused one would test nothing. */
function ok(res: request.Response): void {
  const r = res as unknown as { req: { method: string; path: string } };
  if (res.status >= 300) throw new Error(`a write of the model was refused: ${r.req.method} ${r.req.path} ${res.status} ${JSON.stringify(res.body)}`);
}

const pick = <T>(random: () => number, list: readonly T[]): T | undefined => list[Math.floor(random() * list.length)];
const full = { authorization: `Bearer ${FULL_KEY}` };

const WRITES: Write[] = [
  async ({ cached }, random, ids) => {
    const { author, category } = await ids();
    const title = `Model ${Math.floor(random() * 1e6)}`;
    const status = random() < 0.5 ? 'draft' : 'published';
    ok(await request(cached).post(`/api/articles?status=${status}`).set(full).send({ data: { title, author: pick(random, author!), categories: [pick(random, category!)] } }));
    return `create article ${title} (${status})`;
  },
  async ({ cached }, random, ids) => {
    const id = pick(random, (await ids()).article!);
    if (id === undefined) return 'no article left';
    ok(await request(cached).put(`/api/articles/${id}`).set(full).send({ data: { title: `Renamed ${Math.floor(random() * 1e6)}` } }));
    return `update article ${id}`;
  },
  async ({ cached }, random, ids) => {
    const id = pick(random, (await ids()).author!);
    ok(await request(cached).put(`/api/authors/${id}`).set(full).send({ data: { name: `Author ${Math.floor(random() * 1e6)}` } }));
    return `rename author ${id}`;
  },
  async ({ cached }, random, ids) => {
    const id = pick(random, (await ids()).category!);
    ok(await request(cached).put(`/api/categories/${id}`).set(full).send({ data: { name: `Category ${Math.floor(random() * 1e6)}` } }));
    return `rename category ${id}`;
  },
  async ({ cached }, random, ids) => {
    const id = pick(random, (await ids()).article!);
    if (id === undefined) return 'no article left';
    ok(await request(cached).delete(`/api/articles/${id}`).set(full));
    return `delete article ${id}`;
  },
  async ({ cached }, random, ids) => {
    const id = pick(random, (await ids()).article!);
    if (id === undefined) return 'no article left';
    ok(await request(cached).put(`/api/articles/${id}?status=published`).set(full).send({ data: { description: `Published ${Math.floor(random() * 1e6)}` } }));
    return `publish article ${id}`;
  },
  async ({ cached }, random) => {
    const locale = random() < 0.5 ? 'en' : 'fr';
    ok(await request(cached).put(`/api/global?locale=${locale}`).set(full).send({ data: { siteName: `Site ${Math.floor(random() * 1e6)}` } }));
    return `update global ${locale}`;
  },
  async ({ router }, random, ids) => {
    const id = pick(random, (await ids()).author!)!;
    await router.documents('api::author.author').update({ documentId: id, data: { bio: `Bio ${Math.floor(random() * 1e6)}` } });
    return `document service: author ${id}`;
  },
  async ({ router }, random, ids) => {
    const id = pick(random, (await ids()).category!)!;
    const parent = pick(random, (await ids()).category!)!;
    if (id !== parent) await router.documents('api::category.category').update({ documentId: id, data: { parent } });
    return `document service: category ${id} parent ${parent}`;
  },
];

async function idsOf(pair: Pair): Promise<Record<string, string[]>> {
  const docs = async (uid: string, extra: object = {}) => ((await pair.router.documents(uid as never).findMany({ pagination: { pageSize: 100 }, ...extra } as never)) as { documentId: string }[]).map((d) => d.documentId);
  return { article: await docs('api::article.article', { status: 'draft' }), author: await docs('api::author.author'), category: await docs('api::category.category') };
}

describe.each(SEEDS)('response cache, seed %i: every answer is the uncached one', (seed) => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair();
  });
  afterAll(() => pair.close());

  test(`${STEPS} steps of random writes and reads`, async () => {
    const random = prng(seed);
    const log: string[] = [];
    let repeats = 0;
    const seen = new Set<string>();
    for (let step = 0; step < STEPS; step++) {
      if (random() < 0.25) {
        log.push(await pick(random, WRITES)!(pair, random, () => idsOf(pair)));
        continue;
      }
      const [caller, url] = pick(random, URLS)!;
      if (seen.has(`${caller} ${url}`)) repeats++;
      seen.add(`${caller} ${url}`);
      log.push(`read ${caller} ${url}`);
      const headers = callers[caller]!;
      const a = await binary(request(pair.cached).get(url).set(headers));
      const b = await binary(request(pair.plain).get(url).set(headers));
      const answer = (r: request.Response) => ({ status: r.status, body: (r.body as Buffer).toString('utf8'), etag: r.headers.etag, cacheControl: r.headers['cache-control'], vary: r.headers.vary });
      if (JSON.stringify(answer(a)) !== JSON.stringify(answer(b))) {
        throw new Error(`seed ${seed} step ${step}: the cached answer differs (replay: CACHE_MODEL_SEED=${seed})\n${log.slice(-15).join('\n')}\ncached: ${JSON.stringify(answer(a)).slice(0, 600)}\nplain:  ${JSON.stringify(answer(b)).slice(0, 600)}`);
      }
    }
    expect(repeats).toBeGreaterThan(STEPS / 4);
    expect(pair.router.responseCache!.hits).toBeGreaterThan(STEPS / 10); // answers were served from the cache
  });
});

function binary(req: request.Test): request.Test {
  return req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}
