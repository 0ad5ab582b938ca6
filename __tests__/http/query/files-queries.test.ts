import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { createBlogApp } from '../../../examples/blog/app';
import { expectStrapiError } from '../../helpers/http';
import { testEngine } from '../../helpers/test-engine';
import { LITERAL_TEXT, LOGICAL, NUMBERS_BOOLEANS, STRING_OPERATORS, TEXT_UID_BLOCKS } from './operator-tables';
import { PUBLISHED, published, type ArticleSpec } from './seed-data';
import { FULL_ACCESS, seedQueryFixture, slugs, type QueryFixture } from './seed';

/**
 * `GET /api/upload/files` reads `plugin::upload.file` with the parser and compiler of every content type
 * (lib/media/find-files.ts): the operator tables of the article tests (operator-tables.ts) run here on files made
 * from the same articles, the cases where the media library once answered otherwise than Strapi 5.54 answer as it
 * does, and the limits of content lists apply.
 */
type Json = Record<string, unknown>;
const AUTH = { authorization: `Bearer ${FULL_ACCESS}` };

/** The article attribute each file field stands for: the same attribute types (string, text, integer, decimal). */
const FILE_FIELD: Readonly<Record<string, string>> = { title: 'name', description: 'caption', views: 'width', rating: 'size' };
const FILE_FIELDS = new Set(Object.values(FILE_FIELD));

/** Bracketed keys that are not attribute names. */
const PARAM_KEYS = new Set(['page', 'pageSize', 'start', 'limit', 'withCount']);

/** The article query on the file fields; null when it names an article attribute files have no counterpart of. */
function onFiles(query: string): string | null {
  const field = (name: string): string => FILE_FIELD[name] ?? name;
  const translated = query
    .replace(/\[([A-Za-z_]+)\]/g, (_whole, name: string) => `[${field(name)}]`)
    .replace(/(sort(?:\[\d+\])?=)([A-Za-z_]+)/g, (_whole, key: string, name: string) => `${key}${field(name)}`);
  const names = [...translated.matchAll(/\[([A-Za-z_]+)\]|sort(?:\[\d+\])?=([A-Za-z_]+)/g)].map((m) => (m[1] ?? m[2])!);
  return names.every((name) => FILE_FIELDS.has(name) || PARAM_KEYS.has(name)) ? translated : null;
}

/** A `files` row made from an article: its key in `alternativeText`, its title, description, views and rating. */
function fileRow(a: ArticleSpec, id: number): Json {
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, id)).toISOString();
  return {
    id, documentId: `file-${a.key}`, name: a.title, alternativeText: a.key, caption: a.description, focalPoint: null,
    width: a.views, height: null, formats: null, hash: `h_${a.key}`, ext: '.png', mime: 'image/png', size: a.rating,
    url: `/uploads/h_${a.key}.png`, previewUrl: null, provider: 'local', provider_metadata: null, locale: null,
    _status: 'published', createdAt: at, updatedAt: at, publishedAt: at,
  };
}

describe('the operator tables of content types, on the media library', () => {
  let fx: QueryFixture;
  beforeAll(async () => {
    fx = await seedQueryFixture();
    // The fixture's uploaded images go; the files are the published articles' counterparts, in the same order.
    await fx.router.engine.deleteMany('files', {});
    await fx.router.engine.insertMany('files', PUBLISHED.map((a, i) => fileRow(a, i + 1)));
  });
  afterAll(() => fx.close());

  const files = async (query: string): Promise<Json[]> => {
    const res = await request(fx.app).get(`/api/upload/files?${query}`).set(AUTH);
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${res.text}`);
    expect(Array.isArray(res.body)).toBe(true);
    return res.body as Json[];
  };
  const keys = async (query: string): Promise<string[]> => (await files(query)).map((f) => f.alternativeText as string);

  const cases = [...STRING_OPERATORS, ...LITERAL_TEXT, ...TEXT_UID_BLOCKS, ...NUMBERS_BOOLEANS, ...LOGICAL].flatMap(([query, predicate]) => {
    const translated = onFiles(query);
    return translated === null ? [] : [[translated, predicate] as const];
  });

  it('most cases of the tables have a counterpart on files', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  it.each(cases)('%s', async (query, predicate) => {
    const expected = published(predicate);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(PUBLISHED.length);
    expect(await keys(`${query}&pagination[pageSize]=100`)).toEqual(expected);
  });

  it.each([
    'sort=views:desc',
    'sort=rating:asc',
    'sort[0]=rating:desc&sort[1]=title:asc',
    'sort=title',
    'sort=views:desc&pagination[page]=2&pagination[pageSize]=5',
    'sort=rating&pagination[start]=3&pagination[limit]=4',
    'filters[views][$gte]=20&sort=title:desc&pagination[pageSize]=6',
  ])('%s: the order and page of the same query on articles', async (query) => {
    const articles = slugs(await fx.get(`/api/articles?${query}`));
    expect(articles.length).toBeGreaterThan(1);
    expect(await keys(onFiles(query)!)).toEqual(articles);
  });

  it('fields: id, documentId, the fields asked (in Strapi order) and isUrlSigned', async () => {
    const [first] = await files('fields[0]=size&fields[1]=name&pagination[pageSize]=1');
    expect(first).toEqual({ id: 1, documentId: 'file-a01', name: 'Hello World', size: 1.25, isUrlSigned: false });
    const [all] = await files('pagination[pageSize]=1');
    expect(Object.keys(all!)).toEqual([
      'id', 'documentId', 'name', 'alternativeText', 'caption', 'focalPoint', 'width', 'height', 'formats', 'hash', 'ext', 'mime',
      'size', 'url', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt', 'publishedAt', 'isUrlSigned',
    ]);
  });
});

describe('the queries where the media library answered otherwise than Strapi 5.54', () => {
  let app: Awaited<ReturnType<typeof createBlogApp>>;
  const uploadsDir = mkdtempSync(path.join(os.tmpdir(), 'files-queries-'));
  const png = (width: number, height: number, seed: number): Promise<Buffer> =>
    sharp({ create: { width, height, channels: 3, background: { r: seed * 40, g: 90, b: 200 - seed * 20 } } }).png().toBuffer();

  beforeAll(async () => {
    app = await createBlogApp({ seed: false, uploadsDir, engine: testEngine() });
    const upload = async (req: request.Test): Promise<void> => {
      const res = await req.set(AUTH);
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.text}`);
    };
    // The conformance corpus's media library (setup.upload.*), in its order.
    for (const [name, w, h, seed] of [['tiny.png', 16, 16, 1], ['small.png', 200, 120, 2], ['medium.png', 400, 300, 3], ['large.png', 640, 480, 4]] as const) {
      await upload(request(app.app).post('/api/upload').attach('files', await png(w, h, seed), { filename: name, contentType: 'image/png' }));
    }
    await upload(request(app.app).post('/api/upload').field('fileInfo', JSON.stringify({ name: 'logo-named.png', alternativeText: 'The logo', caption: 'Logo caption' }))
      .attach('files', await png(64, 64, 5), { filename: 'logo.png', contentType: 'image/png' }));
    await upload(request(app.app).post('/api/upload').attach('files', Buffer.from('Plain text attachment for the oracle corpus.\n'), { filename: 'notes.txt', contentType: 'text/plain' }));
    await upload(request(app.app).post('/api/upload')
      .attach('files', await png(24, 12, 6), { filename: 'pair-a.png', contentType: 'image/png' })
      .attach('files', await png(12, 24, 7), { filename: 'pair-b.png', contentType: 'image/png' }));
  });
  afterAll(async () => {
    await app.close();
    rmSync(uploadsDir, { recursive: true, force: true });
  });

  const names = async (query: string): Promise<string[]> => {
    const res = await request(app.app).get(`/api/upload/files?${query}`).set(AUTH);
    expect(res.status).toBe(200);
    return (res.body as Json[]).map((f) => f.name as string);
  };

  it.each([
    ['', ['tiny.png', 'small.png', 'medium.png', 'large.png', 'logo-named.png', 'notes.txt', 'pair-a.png', 'pair-b.png']],
    ['filters[name][$contains]=TINY', ['tiny.png']],
    ['filters[name][$startsWith]=T', ['tiny.png']],
    ['filters[caption][$notIn][0]=x', ['logo-named.png']],
    ['filters[$or][0][name][$contains]=Large&filters[$or][1][name][$endsWith]=TXT', ['large.png', 'notes.txt']],
  ])('%j answers Strapi\'s files', async (query, expected) => {
    expect(await names(query)).toEqual(expected);
  });
});

describe('the limits and errors of content lists', () => {
  let app: Awaited<ReturnType<typeof createBlogApp>>;
  const uploadsDir = mkdtempSync(path.join(os.tmpdir(), 'files-limits-'));
  const a01 = PUBLISHED[0]!;
  beforeAll(async () => {
    app = await createBlogApp({ seed: false, uploadsDir, engine: testEngine() });
    await app.router.engine.insertMany('files', Array.from({ length: 130 }, (_v, i) => ({ ...fileRow(a01, i + 1), documentId: `f${i + 1}`, name: `file ${i + 1}.png` })));
  });
  afterAll(async () => {
    await app.close();
    rmSync(uploadsDir, { recursive: true, force: true });
  });

  const get = (query: string): request.Test => request(app.app).get(`/api/upload/files?${query}`).set(AUTH);
  const ids = async (query: string): Promise<number[]> => {
    const res = await get(query);
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${res.text}`);
    return (res.body as Json[]).map((f) => f.id as number);
  };
  const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_v, i) => from + i);
  const textConditions = (n: number): string => Array.from({ length: n }, (_v, i) => `filters[$or][${i}][name][$containsi]=w${i}`).join('&');

  it.each([
    ['', range(1, 25)],
    ['pagination[pageSize]=100000', range(1, 100)],
    ['pagination[limit]=100000', range(1, 100)],
    ['pagination[page]=2&pagination[pageSize]=100', range(101, 130)],
    ['pagination[start]=120&pagination[limit]=50', range(121, 130)],
    ['start=120&limit=5', range(121, 125)],
    ['pagination[page]=0&pagination[pageSize]=2', [1, 2]],
    ['pagination[start]=9007199254740991&pagination[limit]=9007199254740991', []],
  ])('%j: the page of a content list (default rest.defaultLimit, at most rest.maxLimit)', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it('20 text conditions are read; 21 or 300 are a 400, as on content types', async () => {
    expect((await get(textConditions(20))).status).toBe(200);
    for (const n of [21, 300]) {
      const res = await get(textConditions(n));
      expectStrapiError(res, 400, 'ValidationError', 'Invalid filters parameter: more than 20 text conditions');
      expect(res.body.error.details).toEqual({ key: 'filters', path: null, source: 'query', param: 'filters' });
    }
  });

  it.each([
    ['filters[nope]=1', 'ValidationError', 'Invalid key nope'],
    ['filters[name][$regex]=.*', 'ValidationError', 'Invalid key $regex at name'],
    ['filters[name][$where]=1', 'ValidationError', 'Invalid key $where at name'],
    ['filters[width][$gt]=abc', 'ValidationError', 'Invalid value for $gt at width: expected a number'],
    ['sort=nope:asc', 'ValidationError', 'Invalid key nope'],
    ['sort=name:sideways', 'ValidationError', 'Invalid order. order can only be one of asc|desc|ASC|DESC'],
    ['fields[0]=nope', 'ValidationError', 'Invalid key nope'],
    ['populate=folder', 'ValidationError', 'Invalid key folder'],
    ['populate=related', 'ValidationError', 'Invalid key related: polymorphic relations (morphToMany) are not supported by this API'],
    ['filters[related][id][$eq]=1', 'ValidationError', 'Invalid key related: polymorphic relations (morphToMany) are not supported by this API'],
    ['pagination[page]=1&pagination[start]=0', 'PaginationError', 'Cannot use both page & offset pagination in the same query'],
    ['page=2', 'PaginationError', 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object'],
    ['pagination[start]=1e20', 'ValidationError', `Invalid pagination: pagination[start] is 100000000000000000000, more than the largest supported value ${Number.MAX_SAFE_INTEGER}`],
  ])('%s: 400 %s', async (query, name, message) => {
    expectStrapiError(await get(query), 400, name, message);
  });

  it('a text operand over 8192 characters is a 400, as on content types', async () => {
    expectStrapiError(await get(`filters[name][$containsi]=${'a'.repeat(9000)}`), 400, 'ValidationError', 'Invalid value for $containsi at name: longer than 8192 characters');
  });

  it('GET /upload/files/:id checks its query first, as Strapi does', async () => {
    expect((await request(app.app).get('/api/upload/files/3?populate=*&fields[0]=name').set(AUTH)).body).toMatchObject({ id: 3, name: 'file 3.png', hash: 'h_a01' });
    expectStrapiError(await request(app.app).get('/api/upload/files/3?filters[nope]=1').set(AUTH), 400, 'ValidationError', 'Invalid key nope');
    expectStrapiError(await request(app.app).get('/api/upload/files/abc?populate=folder').set(AUTH), 400, 'ValidationError', 'Invalid key folder');
    expectStrapiError(await request(app.app).get('/api/upload/files/999?sort=id').set(AUTH), 404, 'NotFoundError', 'file.notFound');
  });
});
