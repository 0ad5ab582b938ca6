import qs from 'qs';
import request from 'supertest';
import { blogAuthOptions, createBlogAuthApp, type BlogAuthApp } from './blog-auth-app';
import { prng } from '../../helpers/prng';

/**
 * The Public role cannot `find` authors. Whatever it combines (populate `*`, explicit, nested, dot paths,
 * dynamic zone `on`, components, filters, sort, fields, status, locale, the v4 format), no author data may appear,
 * and any filter or sort that crosses the author relation is `400 Invalid key author`. Seeded: every run sends
 * the same requests.
 */


type Json = Record<string, unknown>;
/** A piece of a query; `forbidden` marks pieces that filter or sort through the author relation. */
interface Piece {
  value: Json;
  forbidden?: boolean;
}

const AUTHOR_FILTERS: Json[] = [
  { author: { name: { $eq: 'Ann Archer' } } },
  { author: { email: { $containsi: 'ann' } } },
  { author: { id: { $notNull: true } } },
  { author: { documentId: { $ne: 'x' } } },
  { $or: [{ title: { $eq: 'nothing' } }, { author: { name: { $startsWith: 'A' } } }] },
  { $not: { author: { bio: { $null: true } } } },
  { $and: [{ views: { $gte: 0 } }, { author: { articles: { title: { $containsi: 'a' } } } }] },
  { categories: { articles: { author: { name: { $eq: 'Bob Brown' } } } } },
];

/** Per endpoint family: valid populate entries (distinct keys), filters, sorts, fields. */
interface Family {
  populate: Json[];
  strings: string[];
  nestedForbidden: Json[];
  filters: Json[];
  sorts: unknown[];
  authorSorts: unknown[];
  fields: unknown[];
}

const ARTICLE: Family = {
  populate: [
    { cover: true },
    { gallery: { fields: ['name'] } },
    { author: true },
    { author: { populate: '*' } },
    { author: { fields: ['email'], populate: { avatar: true } } },
    { author: { count: true } },
    { categories: { populate: '*' } },
    { categories: { fields: ['name'], populate: { articles: { populate: '*' } } } },
    { categories: { populate: { articles: { populate: { author: { populate: '*' } } } } } },
    { categories: { populate: { parent: { populate: { articles: { populate: ['author', 'cover'] } } } } } },
    { localizations: { populate: '*' } },
    { localizations: { populate: { author: true, categories: { populate: '*' } } } },
    { seo: { populate: '*' } },
    { seo: { populate: { shareImage: { fields: ['url'] }, socials: true } } },
    { blocks: { populate: '*' } },
    { blocks: { on: { 'shared.media': { populate: '*' }, 'shared.quote': true } } },
    { blocks: { on: { 'shared.slider': { populate: ['files'] }, 'shared.rich-text': true } } },
  ],
  strings: ['*', 'author', 'author.avatar', 'categories.articles.author', 'cover,author,categories', 'localizations.author', 'seo.socials,blocks'],
  nestedForbidden: [
    { categories: { populate: { articles: { filters: { author: { name: { $eq: 'Ann Archer' } } } } } } },
    { categories: { populate: { articles: { sort: ['author.name:asc'] } } } },
    { localizations: { filters: { author: { id: { $notNull: true } } } } },
    { localizations: { sort: { author: { email: 'desc' } } } },
  ],
  filters: [{ title: { $containsi: 'o' } }, { views: { $gte: 0 } }, { categories: { slug: { $eq: 'web' } } }, { $or: [{ featured: true }, { views: { $lt: 100 } }] }],
  sorts: ['title', 'views:desc', ['publishDate:asc', 'title'], { title: 'desc' }],
  authorSorts: ['author.name', 'author.email:desc', [{ author: { name: 'asc' } }], 'categories.articles.author.name'],
  fields: [['title'], ['title', 'views'], '*', 'slug,description'],
};

const CATEGORY: Family & { authorFilters: Json[] } = {
  populate: [
    { articles: true },
    { articles: { populate: '*' } },
    { articles: { populate: { author: { populate: '*' } } } },
    { parent: { populate: { articles: { populate: '*' } } } },
    { children: { populate: { articles: { populate: ['author', 'categories'] } } } },
  ],
  strings: ['*', 'articles', 'articles.author', 'parent.articles.author.avatar', 'articles.localizations.author'],
  nestedForbidden: [
    { articles: { filters: { author: { name: { $containsi: 'ann' } } } } },
    { children: { populate: { articles: { sort: 'author.email' } } } },
  ],
  filters: [{ name: { $containsi: 'e' } }, { articles: { title: { $containsi: 'hello' } } }],
  authorFilters: [{ articles: { author: { name: { $eq: 'Ann Archer' } } } }, { $or: [{ articles: { author: { email: { $null: false } } } }] }],
  sorts: ['name', 'slug:desc'],
  authorSorts: ['articles.author.name', [{ articles: { author: { email: 'asc' } } }]],
  fields: [['name'], '*'],
};

let ctx: BlogAuthApp;
let forbiddenStrings: string[];
let articleDoc: string;
let categoryDoc: string;

beforeAll(async () => {
  // The Public role is granted the article drafts too, so that `status=draft` requests are fuzzed as well.
  const auth = blogAuthOptions();
  auth.public = { actions: [...(auth.public as { actions: string[] }).actions, 'api::article.article.findDrafts'] };
  ctx = await createBlogAuthApp(auth);
  const authors = await ctx.router.documents('api::author.author').findMany('populate=*');
  forbiddenStrings = authors.data.flatMap((a) => [a.documentId, a.name, a.email, a.bio].filter((v): v is string => typeof v === 'string'));
  forbiddenStrings.push('avatar.png');
  expect(forbiddenStrings.length).toBeGreaterThanOrEqual(8);
  articleDoc = (await ctx.router.documents('api::article.article').findMany('filters[slug][$eq]=hello-content-router')).data[0]!.documentId as string;
  categoryDoc = (await ctx.router.documents('api::category.category').findMany('filters[slug][$eq]=technology')).data[0]!.documentId as string;
});
afterAll(() => ctx.close());

/** Every key of every object in `value`, at any depth. */
function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, out));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysOf(v, out);
    }
  }
  return out;
}

interface Generated {
  path: string;
  query: string;
  v4: boolean;
  forbidden: boolean;
}

function generate(rand: () => number): Generated {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const chance = (p: number): boolean => rand() < p;
  const isArticle = chance(0.65);
  const family = isArticle ? ARTICLE : CATEGORY;
  const one = chance(0.3);
  const path = isArticle ? (one ? '/api/articles/:article' : '/api/articles') : one ? '/api/categories/:category' : '/api/categories';
  const query: Json = {};
  let forbidden = false;

  if (chance(0.25)) {
    query.populate = pick(family.strings);
  } else {
    const populate: Json = {};
    const count = 1 + Math.floor(rand() * 3);
    for (let i = 0; i < count; i += 1) {
      const nested = chance(0.15);
      const entry = nested ? pick(family.nestedForbidden) : pick(family.populate);
      const key = Object.keys(entry)[0]!;
      if (key in populate) continue;
      Object.assign(populate, entry);
      if (nested) forbidden = true;
    }
    query.populate = populate;
  }
  if (chance(0.4)) {
    const authorFilters = isArticle ? AUTHOR_FILTERS : CATEGORY.authorFilters;
    if (chance(0.4)) {
      query.filters = pick(authorFilters);
      forbidden = true;
    } else query.filters = pick(family.filters);
  }
  if (chance(0.4)) {
    if (chance(0.4)) {
      query.sort = pick(family.authorSorts);
      forbidden = true;
    } else query.sort = pick(family.sorts);
  }
  if (chance(0.3)) query.fields = pick(family.fields);
  if (isArticle && chance(0.2)) query.status = 'draft';
  if (isArticle && !one && chance(0.2)) query.locale = pick(['fr', '*']);
  return { path, query: qs.stringify(query, { encodeValuesOnly: true }), v4: chance(0.2), forbidden };
}

const rand = prng(0xc0ffee);
const REQUESTS = Array.from({ length: 400 }, () => generate(rand));

describe('the public never sees authors', () => {
  test('the generated set exercises both outcomes', () => {
    expect(REQUESTS.filter((r) => r.forbidden).length).toBeGreaterThan(80);
    expect(REQUESTS.filter((r) => !r.forbidden).length).toBeGreaterThan(80);
  });

  test.each(REQUESTS.map((r, i) => [i, r] as const))('request %i', async (_i, r) => {
    const target = r.path.replace(':article', articleDoc).replace(':category', categoryDoc);
    let req = request(ctx.app).get(`${target}?${r.query}`);
    if (r.v4) req = req.set('strapi-response-format', 'v4');
    const res = await req;
    const where = `${r.path}?${decodeURIComponent(r.query)}`;
    if (r.forbidden) {
      // Strapi's message names the path when it differs from the key: `Invalid key author at articles.author`.
      expect({ where, status: res.status, message: (res.body as Json).error }).toMatchObject({
        where,
        status: 400,
        message: { name: 'ValidationError', message: expect.stringMatching(/^Invalid key author( at [a-z.]*\.author)?$/) },
      });
      return;
    }
    expect({ where, status: res.status }).toEqual({ where, status: 200 });
    const keys = keysOf(res.body);
    expect({ where, author: keys.has('author'), email: keys.has('email') }).toEqual({ where, author: false, email: false });
    const text = JSON.stringify(res.body);
    for (const s of forbiddenStrings) expect({ where, leaked: text.includes(s) ? s : null }).toEqual({ where, leaked: null });
  });
});

describe('the same requests with a token that may find authors do show them (the test can fail)', () => {
  test('populate=author with the read-only token returns author data', async () => {
    const res = await request(ctx.app)
      .get('/api/articles?populate[author][fields][0]=email')
      .set('authorization', 'Bearer oracle-read-only-token-4b6d8f0a2c4e6a8b0d2f4a6c8e0b2d4f');
    expect(res.status).toBe(200);
    expect(keysOf(res.body).has('email')).toBe(true);
    expect(forbiddenStrings.some((s) => JSON.stringify(res.body).includes(s))).toBe(true);
  });
});
