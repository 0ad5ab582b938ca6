import express from 'express';
import request from 'supertest';
import { createContentRouter, type ContentRouter } from '../../../lib';
import type { Engine } from '../../../lib/engine';
import { seedDemo } from '../../../examples/blog/seed';
import { prng } from '../../helpers/prng';
import { FULL_KEY, READ_KEY } from '../auth/blog-auth-app';
import { blogRouterOptions, type BlogRouterSetup } from './cache-apps';

/**
 * Never stale through a CDN: a tag-indexed cache in front of the router (it keeps every answer but no-store ones
 * (draft reads), errors and callers' answers included, under its tags, and drops the entries of the tags `cache.purge` names), seeded
 * random writes of every kind through the router (REST, the Document Service, the media library), and reads of
 * fixed and random URLs through that cache compared with the router's own answer: status and bytes identical.
 * CDN_MODEL_SEED replays a seed; CDN_MODEL_STEPS runs longer. The Varnish test does the same through Varnish.
 */
const SEEDS = process.env.CDN_MODEL_SEED ? [Number(process.env.CDN_MODEL_SEED)] : [1, 2, 3];
const STEPS = Number(process.env.CDN_MODEL_STEPS ?? 150);

/** A CDN keyed by caller and URL, purged by tag (as Varnish's xkey, Fastly's surrogate keys, Cloudflare's tags). */
class TagCache {
  private readonly entries = new Map<string, { status: number; body: string; tags: string[] }>();
  hits = 0;
  purged = 0;

  async read(app: express.Express, caller: string, url: string): Promise<{ status: number; body: string }> {
    const key = `${caller} ${url}`;
    const hit = this.entries.get(key);
    if (hit) {
      this.hits++;
      return hit;
    }
    const res = await binary(request(app).get(url).set(CALLERS[caller]!));
    const answer = { status: res.status, body: (res.body as Buffer).toString('utf8'), tags: String(res.headers.xkey ?? '').split(/[ ,]+/).filter(Boolean) };
    // A shared cache never keeps a no-store answer (a draft read): writes of drafts purge nothing.
    if (String(res.headers['cache-control'] ?? '').includes('no-store')) return answer;
    // An answer without tags could never be purged: only answers that cannot change may come without (4xx of bad input, 403).
    if (answer.tags.length > 0 || (res.status >= 400 && res.status !== 404)) this.entries.set(key, answer);
    else throw new Error(`${key}: a ${res.status} answer without tags`);
    return answer;
  }

  /** The entries kept, to check after a write that none of them changed. */
  kept(): [string, { status: number; body: string }][] {
    return [...this.entries];
  }

  purge(tags: readonly string[]): void {
    const gone = new Set(tags);
    for (const [key, entry] of this.entries) {
      if (entry.tags.some((t) => gone.has(t))) {
        this.entries.delete(key);
        this.purged++;
      }
    }
  }
}

const CALLERS: Record<string, Record<string, string>> = {
  public: {},
  read: { authorization: `Bearer ${READ_KEY}` },
  full: { authorization: `Bearer ${FULL_KEY}` },
  v4: { 'strapi-response-format': 'v4', authorization: `Bearer ${READ_KEY}` },
};
const full = CALLERS.full!;

const URLS: [string, string][] = [
  ['public', '/api/articles'],
  ['public', '/api/articles?populate=*'],
  ['public', '/api/articles?populate[author][populate][avatar]=true&populate[categories]=true&populate[seo]=true'],
  ['read', '/api/articles?filters[author][name][$containsi]=a&sort=title'],
  ['read', '/api/articles?sort[0]=author.name&sort[1]=title&fields[0]=title'],
  ['public', '/api/articles?locale=fr&populate=author'],
  ['full', '/api/articles?status=draft&populate=*'],
  ['read', '/api/authors?populate=articles'],
  ['read', '/api/authors?populate[articles][filters][title][$containsi]=e'],
  ['read', '/api/authors?populate[articles][count]=true'],
  ['read', '/api/categories?populate[articles][populate][author]=true&populate[parent]=true'],
  ['public', '/api/categories?filters[articles][title][$containsi]=e'],
  // Lists selected or ordered by documents they do not show: names and titles flip between a few values.
  ['read', '/api/articles?filters[author][name][$eq]=Zoe&fields[0]=title'],
  ['public', '/api/articles?filters[categories][name][$startsWith]=News&fields[0]=title'],
  ['public', '/api/categories?filters[articles][title][$eq]=Beta&fields[0]=name'],
  ['read', '/api/authors?populate[articles][filters][title][$eq]=Alpha&fields[0]=name'],
  ['public', '/api/global?populate=*'],
  ['public', '/api/global?locale=fr'],
  ['public', '/api/about?populate=*'],
  ['v4', '/api/articles?populate=author&pagination[pageSize]=3'],
  ['read', '/api/upload/files'],
  ['read', '/api/upload/files/1'],
  ['read', '/api/upload/files/5'],
];

/** One document's reads: an article populated, in French, as a draft; an author or a category with its articles. */
const DOCUMENT_URLS: Record<string, (id: string) => [string, string][]> = {
  article: (id) => [
    ['public', `/api/articles/${id}?populate=*`],
    ['public', `/api/articles/${id}?locale=fr&populate=author`],
    ['full', `/api/articles/${id}?status=draft`],
  ],
  author: (id) => [
    ['read', `/api/authors/${id}?populate=articles`],
    ['read', `/api/authors/${id}?populate[articles][fields][0]=title&populate[avatar]=true`],
  ],
  category: (id) => [
    ['public', `/api/categories/${id}?populate[articles][populate][author]=true&populate[children]=true`],
    ['public', `/api/categories/${id}?populate=parent`],
  ],
};

interface World {
  app: express.Express;
  router: ContentRouter;
  engine: Engine;
  random: () => number;
  ids(): Promise<Record<string, string[]>>;
}

function ok(res: request.Response): void {
  const r = res as unknown as { req: { method: string; path: string } };
  if (res.status >= 300) throw new Error(`a write of the model was refused: ${r.req.method} ${r.req.path} ${res.status} ${JSON.stringify(res.body)}`);
}

const pick = <T>(random: () => number, list: readonly T[]): T | undefined => list[Math.floor(random() * list.length)];
const n = (random: () => number): number => Math.floor(random() * 1e6);

const WRITES: ((w: World) => Promise<string>)[] = [
  async ({ app, random, ids }) => {
    const { author, category } = await ids();
    const status = random() < 0.5 ? 'draft' : 'published';
    ok(await request(app).post(`/api/articles?status=${status}`).set(full).send({ data: { title: `Model ${n(random)}`, author: pick(random, author!) ?? null, categories: category!.length ? [pick(random, category!)] : [] } }));
    return `create article (${status})`;
  },
  async ({ app, random, ids }) => {
    const id = pick(random, (await ids()).article!);
    if (!id) return 'no article';
    ok(await request(app).put(`/api/articles/${id}?status=draft`).set(full).send({ data: { title: `Draft ${n(random)}` } }));
    return `update draft of article ${id}`;
  },
  async ({ app, random, ids }) => {
    const id = pick(random, (await ids()).article!);
    if (!id) return 'no article';
    ok(await request(app).put(`/api/articles/${id}?status=published`).set(full).send({ data: { description: `Published ${n(random)}`, title: pick(random, ['Alpha', 'Beta', 'Gamma']) } }));
    return `publish article ${id}`;
  },
  async ({ app, random, ids }) => {
    const id = pick(random, (await ids()).article!);
    if (!id) return 'no article';
    ok(await request(app).put(`/api/articles/${id}?locale=fr`).set(full).send({ data: { title: `Français ${n(random)}` } }));
    return `French article ${id}`;
  },
  async ({ app, random, ids }) => {
    const id = pick(random, (await ids()).article!);
    if (!id) return 'no article';
    ok(await request(app).delete(`/api/articles/${id}`).set(full));
    return `delete article ${id}`;
  },
  async ({ router, random, ids }) => {
    const id = pick(random, (await ids()).article!);
    if (!id) return 'no article';
    await router.documents('api::article.article').unpublish({ documentId: id });
    return `unpublish article ${id}`;
  },
  async ({ router, random, ids }) => {
    const id = pick(random, (await ids()).article!);
    if (!id) return 'no article';
    await router.documents('api::article.article').discardDraft({ documentId: id }).catch(() => undefined); // nothing published: refused
    return `discard draft of article ${id}`;
  },
  async ({ app, random, ids }) => {
    const id = pick(random, (await ids()).author!);
    if (!id) return 'no author';
    ok(await request(app).put(`/api/authors/${id}`).set(full).send({ data: { name: pick(random, ['Aaron', 'Mia', 'Zoe']) } }));
    return `rename author ${id}`;
  },
  async ({ app, random, ids }) => {
    const { author, article } = await ids();
    const id = pick(random, author!);
    const target = pick(random, article!);
    if (!id || !target) return 'no author';
    ok(await request(app).put(`/api/authors/${id}`).set(full).send({ data: { articles: { connect: [target] } } }));
    return `author ${id} takes article ${target} (the inverse side)`;
  },
  async ({ app, random }) => {
    ok(await request(app).post('/api/authors').set(full).send({ data: { name: `New ${n(random)}` } }));
    return 'create author';
  },
  async ({ app, random, ids }) => {
    const id = pick(random, (await ids()).author!);
    if (!id) return 'no author';
    ok(await request(app).delete(`/api/authors/${id}`).set(full));
    return `delete author ${id} (its articles lose it)`;
  },
  async ({ app, random, ids }) => {
    const id = pick(random, (await ids()).category!);
    if (!id) return 'no category';
    ok(await request(app).put(`/api/categories/${id}`).set(full).send({ data: { name: `${pick(random, ['News', 'Tech', 'Life'])!} ${n(random)}` } }));
    return `rename category ${id}`;
  },
  async ({ router, random, ids }) => {
    const { category } = await ids();
    const id = pick(random, category!);
    const parent = pick(random, category!);
    if (!id || !parent || id === parent) return 'no category';
    await router.documents('api::category.category').update({ documentId: id, data: { parent } });
    return `document service: category ${id} parent ${parent}`;
  },
  async ({ app, random }) => {
    const locale = random() < 0.5 ? 'en' : 'fr';
    ok(await request(app).put(`/api/global?locale=${locale}`).set(full).send({ data: { siteName: `Site ${n(random)}` } }));
    return `update global ${locale}`;
  },
  async ({ app, random }) => {
    const id = 1 + Math.floor(random() * 3);
    ok(await request(app).post(`/api/upload?id=${id}`).set(full).field('fileInfo', JSON.stringify({ alternativeText: `Alt ${n(random)}` })));
    return `media ${id} info`;
  },
];

async function idsOf(router: ContentRouter): Promise<Record<string, string[]>> {
  const docs = async (uid: string, extra: object = {}) => ((await router.documents(uid as never).findMany({ pagination: { pageSize: 100 }, ...extra } as never)) as { documentId: string }[]).map((d) => d.documentId);
  return { article: await docs('api::article.article', { status: 'draft' }), author: await docs('api::author.author'), category: await docs('api::category.category') };
}

describe.each(SEEDS)('CDN tags, seed %i: a tag-purged cache never serves a stale answer', (seed) => {
  let world: World;
  let cdn: TagCache;
  let setup: BlogRouterSetup;
  let purges = 0;
  beforeAll(async () => {
    setup = blogRouterOptions('cdn-model');
    const { engine } = setup;
    const router = createContentRouter({ ...setup.options, cacheTags: { header: 'xkey', maxDocuments: 12 } });
    const app = express().use('/api', router);
    await router.ready;
    await seedDemo(app, FULL_KEY);
    cdn = new TagCache();
    router.on('cache.purge', ({ tags }) => {
      purges++;
      cdn.purge(tags);
    });
    world = { app, router, engine, random: prng(seed), ids: () => idsOf(router) };
  });
  afterAll(() => setup.close());

  test(`${STEPS} steps of random writes and reads`, async () => {
    const { random } = world;
    const log: string[] = [];
    for (let step = 0; step < STEPS; step++) {
      if (random() < 0.2) {
        log.push(await pick(random, WRITES)!(world));
        // Every answer the CDN still keeps after the write must be the router's answer now.
        for (const [key, kept] of cdn.kept()) {
          const [caller, url] = [key.slice(0, key.indexOf(' ')), key.slice(key.indexOf(' ') + 1)];
          const now = await binary(request(world.app).get(url).set(CALLERS[caller]!));
          if (now.status !== kept.status || (now.body as Buffer).toString('utf8') !== kept.body) {
            throw new Error(`seed ${seed} step ${step}: the CDN kept a changed answer (replay: CDN_MODEL_SEED=${seed})\n${log.slice(-8).join('\n')}\n${key}\ncdn:    ${kept.status} ${kept.body.slice(0, 400)}\nrouter: ${now.status} ${(now.body as Buffer).toString('utf8').slice(0, 400)}`);
          }
        }
        continue;
      }
      const type = pick(random, ['article', 'author', 'category'] as const)!;
      const ids = (await world.ids())[type]!;
      const urls = random() < 0.5 || ids.length === 0 ? URLS : DOCUMENT_URLS[type]!(pick(random, ids)!);
      const [caller, url] = pick(random, urls)!;
      log.push(`read ${caller} ${url}`);
      const viaCdn = await cdn.read(world.app, caller, url);
      const direct = await binary(request(world.app).get(url).set(CALLERS[caller]!));
      const own = { status: direct.status, body: (direct.body as Buffer).toString('utf8') };
      if (viaCdn.status !== own.status || viaCdn.body !== own.body) {
        throw new Error(`seed ${seed} step ${step}: the CDN's answer is stale (replay: CDN_MODEL_SEED=${seed})\n${log.slice(-12).join('\n')}\ncdn:    ${viaCdn.status} ${viaCdn.body.slice(0, 400)}\nrouter: ${own.status} ${own.body.slice(0, 400)}`);
      }
    }
    expect(cdn.hits).toBeGreaterThan(STEPS / 10); // answers were served from the CDN
    expect(cdn.purged).toBeGreaterThan(0);
    expect(purges).toBeGreaterThan(0);
  });
});

function binary(req: request.Test): request.Test {
  return req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}
