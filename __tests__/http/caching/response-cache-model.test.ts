import express from 'express';
import request from 'supertest';
import { createContentRouter, type ContentRouter } from '../../../lib';
import type { Engine } from '../../../lib/engine';
import { seedDemo } from '../../../examples/blog/seed';
import { prng } from '../../helpers/prng';
import { FULL_KEY, READ_KEY } from '../auth/blog-auth-app';
import { blogRouterOptions } from './cache-apps';

/**
 * Never stale: seeded random writes of every kind (REST creates, updates, deletes that cascade, publishes, locales,
 * relation changes, single types, media updates, and the Document Service's update, publish, unpublish and
 * discard) interleaved with reads of fixed URLs (and of the findOne of a random document) by several callers.
 * Two routers with the response cache share the engine with `shared: true` (two instances on one database; with
 * MONGODB_URI, one MongoDB); writes go through either. Each read goes to both and to a router without the cache:
 * status, bytes and ETag must be identical. The seed is printed with any difference.
 * CACHE_MODEL_SEED replays a seed; CACHE_MODEL_SEEDS=<n> runs seeds 1..n; CACHE_MODEL_STEPS=<n> runs longer
 * (scripts/soak.mjs runs 4 seeds of 300 steps).
 */
const SEEDS = process.env.CACHE_MODEL_SEED
  ? [Number(process.env.CACHE_MODEL_SEED)]
  : Array.from({ length: Number(process.env.CACHE_MODEL_SEEDS ?? 3) }, (_, i) => i + 1);
const STEPS = Number(process.env.CACHE_MODEL_STEPS ?? 100);

interface Pair {
  cached: express.Express;
  /** A second cached router on the same engine: another instance. */
  peer: express.Express;
  plain: express.Express;
  router: ContentRouter;
  peerRouter: ContentRouter;
  engine: Engine;
  close(): Promise<void>;
}

async function createPair(): Promise<Pair> {
  const { options, engine, close } = blogRouterOptions('cache-model');
  const router = createContentRouter({ ...options, responseCache: { maxBytes: 400_000, shared: true } });
  const cached = express().use('/api', router);
  await router.ready;
  await seedDemo(cached, FULL_KEY);
  const peerRouter = createContentRouter({ ...options, responseCache: { maxBytes: 400_000, shared: true } });
  await peerRouter.ready;
  const peer = express().use('/api', peerRouter);
  const other = createContentRouter(options);
  await other.ready;
  const plain = express().use('/api', other);
  return { cached, peer, plain, router, peerRouter, engine, close };
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
  ['read', '/api/articles?populate[cover]=true&populate[seo][populate][shareImage]=true&populate[blocks][populate]=*'],
  ['read', '/api/authors?populate[avatar]=true&populate[articles][populate][categories]=true'],
  ['read', '/api/articles?locale=fr&populate[localizations]=true&status=draft'],
  ['public', '/api/articles?populate[author][filters][name][$containsi]=e&populate[categories][populate][parent]=true'],
  ['read', '/api/categories?populate[parent][populate][parent]=true&filters[parent][name][$notNull]=true'],
  ['read', '/api/authors?filters[articles][title][$containsi]=o&populate[articles][fields][0]=title'],
  ['public', '/api/articles?filters[categories][name][$containsi]=t&populate[categories]=true&sort=title'],
  ['read', '/api/authors?populate[articles][filters][title][$containsi]=i&sort=name'],
];

/** Reads of one document, for a random documentId of the type (`{id}` in the path). */
const FIND_ONE: [string, string, keyof Ids][] = [
  ['public', '/api/articles/{id}?populate=*', 'article'],
  ['read', '/api/articles/{id}?populate[author][populate][avatar]=true&locale=fr', 'article'],
  ['full', '/api/articles/{id}?status=draft&populate=categories', 'article'],
  ['read', '/api/authors/{id}?populate=articles', 'author'],
  ['read', '/api/categories/{id}?populate[articles][populate][author]=true', 'category'],
];

interface Ids {
  article: string[];
  author: string[];
  category: string[];
  file: number[];
}
type Write = (pair: Pair, random: () => number, ids: () => Promise<Ids>) => Promise<string>;

/** A write of the model must succeed: a refused one would test nothing. */
function ok(res: request.Response): void {
  const r = res as unknown as { req: { method: string; path: string } };
  if (res.status >= 300) throw new Error(`a write of the model was refused: ${r.req.method} ${r.req.path} ${res.status} ${JSON.stringify(res.body)}`);
}

const pick = <T>(random: () => number, list: readonly T[]): T | undefined => list[Math.floor(random() * list.length)];
const full = { authorization: `Bearer ${FULL_KEY}` };

/** Writes go through either cached router (instance). */
const via = <T>(random: () => number, a: T, b: T): T => (random() < 0.5 ? a : b);
const n = (random: () => number) => Math.floor(random() * 1e6);
/** Names from small pools, so that a write moves a document in and out of the filters of the URLs (`a`, `e`, `o`). */
const NAMES = ['Ann', 'Bob', 'Cyd', 'Eve', 'Tom'];
const TITLES = ['Model', 'Story', 'Tip', 'Hint', 'Post'];
const CATEGORIES = ['News', 'Tech', 'Art', 'Food'];
const word = (random: () => number, pool: readonly string[]): string => pick(random, pool)!;

const WRITES: Write[] = [
  async ({ cached, peer }, random, ids) => {
    const { author, category } = await ids();
    const title = `${word(random, TITLES)} ${n(random)}`;
    const status = random() < 0.5 ? 'draft' : 'published';
    ok(await request(via(random, cached, peer)).post(`/api/articles?status=${status}`).set(full).send({ data: { title, author: pick(random, author), categories: [pick(random, category)] } }));
    return `create article ${title} (${status})`;
  },
  async ({ cached, peer }, random, ids) => {
    const id = pick(random, (await ids()).article);
    if (id === undefined) return 'no article left';
    ok(await request(via(random, cached, peer)).put(`/api/articles/${id}`).set(full).send({ data: { title: `${word(random, TITLES)} ${n(random)}` } }));
    return `update article ${id}`;
  },
  async ({ cached, peer }, random, ids) => {
    const id = pick(random, (await ids()).author);
    ok(await request(via(random, cached, peer)).put(`/api/authors/${id}`).set(full).send({ data: { name: `${word(random, NAMES)} ${n(random)}` } }));
    return `rename author ${id}`;
  },
  async ({ cached, peer }, random, ids) => {
    const id = pick(random, (await ids()).category);
    ok(await request(via(random, cached, peer)).put(`/api/categories/${id}`).set(full).send({ data: { name: `${word(random, CATEGORIES)} ${n(random)}` } }));
    return `rename category ${id}`;
  },
  async ({ cached, peer }, random, ids) => {
    const id = pick(random, (await ids()).article);
    if (id === undefined) return 'no article left';
    ok(await request(via(random, cached, peer)).delete(`/api/articles/${id}`).set(full));
    return `delete article ${id}`;
  },
  async ({ cached, peer }, random, ids) => {
    const id = pick(random, (await ids()).article);
    if (id === undefined) return 'no article left';
    ok(await request(via(random, cached, peer)).put(`/api/articles/${id}?status=published`).set(full).send({ data: { description: `Published ${Math.floor(random() * 1e6)}` } }));
    return `publish article ${id}`;
  },
  async ({ cached, peer }, random) => {
    const locale = random() < 0.5 ? 'en' : 'fr';
    ok(await request(via(random, cached, peer)).put(`/api/global?locale=${locale}`).set(full).send({ data: { siteName: `Site ${Math.floor(random() * 1e6)}` } }));
    return `update global ${locale}`;
  },
  async ({ router, peerRouter }, random, ids) => {
    const id = pick(random, (await ids()).author)!;
    await via(random, router, peerRouter).documents('api::author.author').update({ documentId: id, data: { bio: `Bio ${n(random)}`, ...(random() < 0.5 ? { name: `${word(random, NAMES)} ${n(random)}` } : {}) } });
    return `document service: author ${id}`;
  },
  async ({ router, peerRouter }, random, ids) => {
    const id = pick(random, (await ids()).category)!;
    const parent = pick(random, (await ids()).category)!;
    if (id !== parent) await via(random, router, peerRouter).documents('api::category.category').update({ documentId: id, data: { parent } });
    return `document service: category ${id} parent ${parent}`;
  },
  async ({ router, peerRouter }, random, ids) => {
    const id = pick(random, (await ids()).article);
    if (id === undefined) return 'no article left';
    const service = via(random, router, peerRouter).documents('api::article.article');
    const kind = pick(random, ['publish', 'unpublish', 'discardDraft'] as const)!;
    const locale = random() < 0.7 ? 'en' : 'fr';
    await service[kind](id, { locale });
    return `document service: ${kind} article ${id} ${locale}`;
  },
  async ({ cached, peer }, random, ids) => {
    const id = pick(random, (await ids()).article);
    if (id === undefined) return 'no article left';
    const status = random() < 0.5 ? 'draft' : 'published';
    ok(await request(via(random, cached, peer)).put(`/api/articles/${id}?locale=fr&status=${status}`).set(full).send({ data: { title: `Titre ${n(random)}` } }));
    return `locale fr of article ${id} (${status})`;
  },
  async ({ cached, peer }, random, ids) => {
    const { article, author, category } = await ids();
    const id = pick(random, article);
    if (id === undefined) return 'no article left';
    const data = random() < 0.5 ? { author: random() < 0.2 ? null : pick(random, author) } : { categories: { connect: [pick(random, category)], disconnect: [pick(random, category)] } };
    ok(await request(via(random, cached, peer)).put(`/api/articles/${id}?status=published`).set(full).send({ data }));
    return `relations of article ${id}: ${JSON.stringify(data)}`;
  },
  async ({ cached, peer }, random) => {
    const name = `${word(random, NAMES)} ${n(random)}`;
    ok(await request(via(random, cached, peer)).post('/api/authors').set(full).send({ data: { name, email: `a${n(random)}@example.com` } }));
    return `create author ${name}`;
  },
  async ({ cached, peer }, random, ids) => {
    const { author } = await ids();
    if (author.length < 3) return 'keep three authors';
    const id = pick(random, author)!;
    ok(await request(via(random, cached, peer)).delete(`/api/authors/${id}`).set(full));
    return `delete author ${id} (its articles lose it)`;
  },
  async ({ cached, peer }, random, ids) => {
    const { category } = await ids();
    if (category.length < 3) {
      ok(await request(via(random, cached, peer)).post('/api/categories').set(full).send({ data: { name: `${word(random, CATEGORIES)} ${n(random)}`, slug: `cat-${n(random)}` } }));
      return 'create category';
    }
    const id = pick(random, category)!;
    ok(await request(via(random, cached, peer)).delete(`/api/categories/${id}`).set(full));
    return `delete category ${id}`;
  },
  async ({ cached, peer }, random, ids) => {
    const id = pick(random, (await ids()).file)!;
    const info = JSON.stringify({ alternativeText: `Alt ${n(random)}`, caption: `Caption ${n(random)}` });
    ok(await request(via(random, cached, peer)).post(`/api/upload?id=${id}`).set(full).field('fileInfo', info));
    return `media update ${id}`;
  },
  async ({ cached, peer }, random) => {
    ok(await request(via(random, cached, peer)).put('/api/about').set(full).send({ data: { title: `About ${n(random)}` } }));
    return 'update about';
  },
];

async function idsOf(pair: Pair): Promise<Ids> {
  const docs = async (uid: string, extra: object = {}) => ((await pair.router.documents(uid as never).findMany({ pagination: { pageSize: 100 }, ...extra } as never)) as { documentId: string }[]).map((d) => d.documentId);
  const files = (await request(pair.plain).get('/api/upload/files').set(full)).body as { id: number }[];
  return { article: await docs('api::article.article', { status: 'draft' }), author: await docs('api::author.author'), category: await docs('api::category.category'), file: files.map((f) => f.id) };
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
      let [caller, url] = pick(random, URLS)!;
      if (random() < 0.25) {
        const [who, template, type] = pick(random, FIND_ONE)!;
        const id = pick<string | number>(random, (await idsOf(pair))[type]) ?? 'none';
        [caller, url] = [who, template.replace('{id}', String(id))];
      }
      if (seen.has(`${caller} ${url}`)) repeats++;
      seen.add(`${caller} ${url}`);
      log.push(`read ${caller} ${url}`);
      const headers = callers[caller]!;
      const answer = (r: request.Response) => ({ status: r.status, body: (r.body as Buffer).toString('utf8'), etag: r.headers.etag, cacheControl: r.headers['cache-control'], vary: r.headers.vary });
      const b = answer(await binary(request(pair.plain).get(url).set(headers)));
      for (const [name, app] of random() < 0.5 ? ([['cached', pair.cached], ['peer', pair.peer]] as const) : ([['peer', pair.peer], ['cached', pair.cached]] as const)) {
        const a = answer(await binary(request(app).get(url).set(headers)));
        if (JSON.stringify(a) !== JSON.stringify(b)) {
          throw new Error(`seed ${seed} step ${step}: the ${name} router's answer differs (replay: CACHE_MODEL_SEED=${seed})\n${log.slice(-15).join('\n')}\n${name}: ${JSON.stringify(a).slice(0, 600)}\nplain:  ${JSON.stringify(b).slice(0, 600)}`);
        }
      }
    }
    expect(repeats).toBeGreaterThan(STEPS / 4);
    const hits = pair.router.responseCache!.hits + pair.peerRouter.responseCache!.hits;
    expect(hits).toBeGreaterThan(STEPS / 10); // answers were served from the cache
    console.log(`response cache model, seed ${seed}: ${STEPS} steps, ${log.filter((l) => !l.startsWith('read')).length} writes, ${hits} hits`);
  }, Math.max(60_000, STEPS * 1000));
});

function binary(req: request.Test): request.Test {
  return req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}
