import express from 'express';
import request from 'supertest';
import { createContentRouter, type ContentRouterOptions } from '../../../lib';
import { everyActionPublic } from '../../helpers/every-action';
import { expectStrapiError } from '../../helpers/http';
import { prng } from '../../helpers/prng';
import { testEngine } from '../../helpers/test-engine';
import { cursorComponents, cursorContentTypes, randomEntry } from './cursor-model';

type Json = Record<string, unknown>;

/** The seed of the random data and writes; set CURSOR_SEED to replay a run. */
const SEED = Number(process.env.CURSOR_SEED ?? Math.floor(Math.random() * 2 ** 31));
// eslint-disable-next-line no-console
console.log(`cursor-pagination: CURSOR_SEED=${SEED}`);

async function createApp(rest: ContentRouterOptions['rest'] = {}): Promise<express.Express> {
  const router = createContentRouter({
    contentTypes: cursorContentTypes,
    components: cursorComponents,
    engine: testEngine(),
    i18n: { locales: ['en', 'fr'], defaultLocale: 'en' },
    upload: false,
    auth: everyActionPublic(cursorContentTypes),
    rest,
  });
  await router.ready;
  const app = express();
  app.use('/api', router);
  return app;
}

let app: express.Express;
const random = prng(SEED);

const get = async (path: string): Promise<request.Response> => request(app).get(path);
const body = (res: request.Response): Json => res.body as Json;
const data = (res: request.Response): Json[] => body(res).data as Json[];
const meta = (res: request.Response): Json => (body(res).meta as Json).pagination as Json;

async function create(entry: Json, query = ''): Promise<string> {
  const res = await request(app).post(`/api/entries${query}`).send({ data: entry });
  expect(res.status).toBe(201);
  return (body(res).data as Json).documentId as string;
}

beforeAll(async () => {
  app = await createApp({ cursorSecret: 'a cursor secret for the tests' });
  const ann = await request(app).post('/api/people').send({ data: { name: 'Ann' } });
  const author = (body(ann).data as Json).documentId as string;
  for (let i = 0; i < 32; i++) await create({ ...randomEntry(random), ...(i % 3 === 0 ? { author } : {}), tags: [{ label: 't' }] });
  for (let i = 0; i < 6; i++) await create(randomEntry(random), '?status=draft');
  for (let i = 0; i < 6; i++) await create(randomEntry(random), '?locale=fr');
});

/** Every page of a cursor walk of `query` (`limit` a page), `between(pageNumber)` run after each page. */
async function walk(query: string, limit: number, between?: (page: number) => Promise<void>): Promise<Json[]> {
  const seen: Json[] = [];
  let cursor = '';
  for (let page = 0; page < 1000; page++) {
    const res = await get(`/api/entries?${query}&pagination[limit]=${limit}&pagination[cursor]=${encodeURIComponent(cursor)}`);
    expect(res.status).toBe(200);
    seen.push(...data(res));
    expect(data(res).length).toBeLessThanOrEqual(limit);
    const next = meta(res).nextCursor as string | null;
    if (next === null) return seen;
    cursor = next;
    await between?.(page);
  }
  throw new Error('the walk did not end');
}

/** Every entry of `query` in one offset page (at most 100). */
async function offsetList(query: string): Promise<Json[]> {
  const res = await get(`/api/entries?${query}&pagination[pageSize]=100`);
  expect(res.status).toBe(200);
  return data(res);
}

const SORTS = [
  '',
  'sort=title',
  'sort=rank:desc,title',
  'sort=rank,score:desc',
  'sort=seo.label:desc',
  'sort[0][seo][label]=asc&sort[1]=rank:desc',
  'sort=big',
  'sort=big:desc,day',
  'sort=flag:desc,day',
  'sort=day:desc,flag',
  'sort=id:desc',
  'sort=title:desc,rank:desc,score,big:desc,flag,day:desc',
  'sort=createdAt:desc',
];

describe('a cursor walk gives the offset order, page after page', () => {
  it.each(SORTS)('%s', async (sort) => {
    const full = await offsetList(sort);
    expect(full.length).toBeGreaterThan(25);
    for (const limit of [4, 100]) expect((await walk(sort, limit)).map((e) => e.id)).toEqual(full.map((e) => e.id));
  });

  it.each(['status=draft', 'locale=fr', 'locale=*', 'filters[rank][$gte]=1', 'filters[author][name][$eq]=Ann', 'filters[$or][0][flag][$eq]=true&filters[$or][1][title][$null]=true'])('with %s', async (query) => {
    for (const sort of ['sort=title:desc,rank', 'sort=day']) {
      const full = await offsetList(`${query}&${sort}`);
      expect((await walk(`${query}&${sort}`, 3)).map((e) => e.id)).toEqual(full.map((e) => e.id));
    }
  });
});

describe('a cursor walk over a collection written between every page', () => {
  /** Inserts, deletes and updates (sort keys included) of random entries; the touched ones are recorded. */
  async function writeSome(touched: Set<string>, live: string[]): Promise<void> {
    if (random() < 0.6) live.push(await create(randomEntry(random)));
    const at = Math.floor(random() * live.length);
    const victim = live[at];
    if (victim !== undefined && random() < 0.5) {
      touched.add(victim);
      live.splice(at, 1);
      expect((await request(app).delete(`/api/entries/${victim}`)).status).toBe(204);
    }
    const other = live[Math.floor(random() * live.length)];
    if (other !== undefined) {
      touched.add(other);
      expect((await request(app).put(`/api/entries/${other}`).send({ data: randomEntry(random) })).status).toBe(200);
    }
  }

  it.each(SORTS.filter((_, i) => i % 2 === 0 || i === 11))('visits every entry that existed for the whole walk exactly once: %s', async (sort) => {
    const before = await offsetList(sort);
    const live = before.map((e) => e.documentId as string);
    const touched = new Set<string>();
    const seen = await walk(`${sort}&fields[0]=title`, 4, () => writeSome(touched, live));
    const untouched = before.map((e) => e.documentId as string).filter((d) => !touched.has(d));
    const counts = new Map<unknown, number>();
    for (const e of seen) counts.set(e.documentId, (counts.get(e.documentId) ?? 0) + 1);
    expect(untouched.filter((d) => counts.get(d) !== 1)).toEqual([]);
    // No row twice: an entry updated in the walk is a new row (publishing recreates it) and may be seen again.
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    expect(untouched.length).toBeGreaterThan(10);
  });
});

describe('meta.pagination', () => {
  it('answers limit and nextCursor, null on the last page; the total only with withCount', async () => {
    const first = await get('/api/entries?pagination[limit]=5&pagination[cursor]=');
    expect(Object.keys(meta(first)).sort()).toEqual(['limit', 'nextCursor']);
    expect(meta(first).limit).toBe(5);
    expect(typeof meta(first).nextCursor).toBe('string');
    const total = meta(await get('/api/entries?pagination[pageSize]=1')).total;
    const counted = await get('/api/entries?pagination[limit]=5&pagination[cursor]=&pagination[withCount]=true');
    expect(meta(counted).total).toBe(total);
    const second = await get(`/api/entries?pagination[limit]=5&pagination[withCount]=true&pagination[cursor]=${meta(counted).nextCursor as string}`);
    expect(meta(second).total).toBe(total);
    const last = await get(`/api/entries?filters[rank][$eq]=5&pagination[limit]=100&pagination[cursor]=`);
    expect(data(last).length).toBeGreaterThan(0);
    expect(meta(last)).toEqual({ limit: 100, nextCursor: null });
    const none = await get(`/api/entries?filters[rank][$gt]=1000&pagination[cursor]=`);
    expect(meta(none)).toEqual({ limit: 25, nextCursor: null });
    expect(data(none)).toEqual([]);
  });

  it('keeps fields and populate; no internal field leaks', async () => {
    const res = await get('/api/entries?fields[0]=title&populate[author][fields][0]=name&sort=rank&pagination[limit]=40&pagination[cursor]=');
    expect(res.status).toBe(200);
    for (const e of data(res)) expect(Object.keys(e).sort()).toEqual(['author', 'documentId', 'id', 'title']);
    expect(data(res).some((e) => (e.author as Json | null)?.name === 'Ann')).toBe(true);
    expect(res.text).not.toMatch(/__/);
  });
});

describe('bad cursors are a 400, never a 500', () => {
  let cursor: string;
  beforeAll(async () => {
    cursor = meta(await get('/api/entries?sort=title&pagination[limit]=2&pagination[cursor]=')).nextCursor as string;
  });
  const page = (query: string): Promise<request.Response> => get(`/api/entries?${query}`);

  it('the cursor itself works', async () => {
    expect((await page(`sort=title&pagination[limit]=2&pagination[cursor]=${cursor}`)).status).toBe(200);
  });

  it.each<[string, (c: string) => string]>([
    ['altered', (c) => `${c[0] === 'A' ? 'B' : 'A'}${c.slice(1)}`],
    ['truncated', (c) => c.slice(0, -3)],
    ['without its tag', (c) => c.split('.')[0]!],
    ['a forged body', (c) => `${Buffer.from('[{"$gt":""},1]').toString('base64url')}.${c.split('.')[1]!}`],
    ['oversized', (c) => `${'A'.repeat(5000)}${c}`],
    ['garbage', () => '%00%7B%22%24where%22%3A1%7D'],
    ['only a dot', () => '.'],
  ])('%s', async (_name, change) => {
    const res = await page(`sort=title&pagination[limit]=2&pagination[cursor]=${change(cursor)}`);
    expectStrapiError(res, 400, 'ValidationError');
    expect((body(res).error as Json).message).toMatch(/^Invalid pagination\[cursor\]/);
  });

  it.each(['sort=title:desc', 'sort=rank', '', 'sort=title&filters[rank][$gt]=0', 'sort=title&locale=fr', 'sort=title&status=draft'])('a cursor of another query: %s', async (other) => {
    expectStrapiError(await page(`${other}&pagination[limit]=2&pagination[cursor]=${cursor}`), 400, 'ValidationError');
  });

  it('a cursor of another router (another secret)', async () => {
    const other = await createApp({ cursorSecret: 'another secret, another router' });
    expectStrapiError(await request(other).get(`/api/entries?sort=title&pagination[limit]=2&pagination[cursor]=${cursor}`), 400, 'ValidationError');
  });

  it.each(['pagination[cursor][$gt]=1', 'pagination[cursor][0]=a&pagination[cursor][1]=b'])('not a string: %s', async (query) => {
    expectStrapiError(await page(query), 400, 'ValidationError');
  });

  it.each(['pagination[page]=2', 'pagination[pageSize]=2', 'pagination[start]=2'])('mixed with %s: PaginationError', async (query) => {
    expectStrapiError(await page(`pagination[cursor]=&${query}`), 400, 'PaginationError');
  });

  it.each([
    ['sort=author.name', /Cannot paginate by cursor on sort author.name/],
    ['sort=tags.label', /Cannot paginate by cursor on sort tags.label/],
    ['sort=meta', /Cannot paginate by cursor on sort meta/],
  ])('a sort a cursor cannot follow: %s', async (sort, message) => {
    const res = await page(`${sort}&pagination[cursor]=`);
    expectStrapiError(res, 400, 'ValidationError');
    expect((body(res).error as Json).message).toMatch(message);
  });
});

describe('when cursors are off (strict Strapi: rest.cursorPagination false)', () => {
  it('pagination[cursor] is ignored, as Strapi 5 ignores pagination keys it does not know', async () => {
    const strict = await createApp({ cursorPagination: false });
    const res = await request(strict).get('/api/entries?pagination[limit]=2&pagination[cursor]=anything');
    expect(res.status).toBe(200);
    expect(meta(res)).toEqual({ start: 0, limit: 2, total: 0 });
  });
});
