import express from 'express';
import request from 'supertest';
import { createBlogApp } from '../../../examples/blog/app';
import { loadBlogModel } from '../../../examples/blog/model';
import { createContentRouter, memoryEngine, type Engine } from '../../../lib';
import { FieldIndex } from '../../../lib/engine/memory/storage/field-index';
import { everyActionPublic } from '../../helpers/every-action';
import { expectStrapiError } from '../../helpers/http';
import { testEngine } from '../../helpers/test-engine';

/**
 * Issue 29: a chain of relation filters (`filters[author][articles][author][articles]...`) joined, for every row,
 * every row of every level again: its cost grew about tenfold per pair (12.7 s for five pairs on the corpus) and
 * held the event loop. The memory engine answers relation filters as semi-joins (execution/semi-join): each
 * target row is tested once per read, so the rows a read visits grow with the levels, not their product. On
 * every engine a chain whose fan-outs may multiply past the join budget is refused before it runs
 * (documents/filter-budget), as MongoDB would run it as written.
 */
const token = loadBlogModel().permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;
const AUTHORS = ['Ann', 'Bob', 'Cy', 'Dee'];
const PER_AUTHOR = 6;

async function seed(app: express.Express): Promise<void> {
  const post = async (path: string, data: object): Promise<string> => {
    const res = await request(app).post(`/api${path}`).set('authorization', `Bearer ${token}`).send({ data });
    expect(res.status).toBe(201);
    return (res.body as { data: { documentId: string } }).data.documentId;
  };
  for (const name of AUTHORS) {
    const author = await post('/authors', { name, email: `${name.toLowerCase()}@example.com` });
    for (let i = 0; i < PER_AUTHOR; i++) await post('/articles', { title: `${name} ${i}`, slug: `${name.toLowerCase()}-${i}`, author });
  }
}

const chain = (pairs: number): string => '[author][articles]'.repeat(pairs);

/** The blog model on `engine` with every action public and a join budget no chain here reaches. */
async function unboundedBlog(engine: Engine): Promise<{ app: express.Express; close(): Promise<void> }> {
  const model = loadBlogModel();
  const router = createContentRouter({
    contentTypes: model.contentTypes, components: model.components, engine, upload: false,
    i18n: { locales: ['en', 'fr'], defaultLocale: 'en' }, auth: { ...everyActionPublic(model.contentTypes), apiTokens: model.permissions.apiTokens.map((t) => ({ name: t.name, type: t.type, accessKey: t.accessKey })) },
    rest: { maxJoinedRows: 100_000_000 },
  });
  await router.ready;
  const app = express();
  app.use('/api', router);
  return { app, close: () => engine.close() };
}

async function get(app: express.Express, path: string): Promise<request.Response> {
  return request(app).get(path).set('authorization', `Bearer ${token}`);
}

describe('relation filter chains', () => {
  describe('rows visited (memory engine)', () => {
    let app: express.Express;
    let engine: Engine;
    let close: () => Promise<void>;
    beforeAll(async () => {
      engine = memoryEngine({ ephemeral: true });
      ({ app, close } = await unboundedBlog(engine));
      await seed(app);
    });
    afterAll(() => close());

    /** The rows the memory engine's hash indexes hand out while `path` is read (every join probes one). */
    async function visited(path: string): Promise<{ status: number; rows: number; data: unknown[] }> {
      let rows = 0;
      const { selectEqual, bucket: bucketOf } = FieldIndex.prototype;
      const select = jest.spyOn(FieldIndex.prototype, 'selectEqual');
      const bucket = jest.spyOn(FieldIndex.prototype, 'bucket');
      const counted = <A extends unknown[]>(original: (...args: A) => readonly unknown[] | null) => function (this: FieldIndex, ...args: A) {
        const out = original.apply(this, args);
        rows += out?.length ?? 0;
        return out;
      };
      select.mockImplementation(counted(selectEqual) as never);
      bucket.mockImplementation(counted(bucketOf) as never);
      try {
        const res = await get(app, path);
        return { status: res.status, rows, data: (res.body as { data: unknown[] }).data };
      } finally {
        select.mockRestore();
        bucket.mockRestore();
      }
    }

    it.each([1, 2, 3, 4, 5])('filters through %i author/articles pairs visit each level\'s rows about once', async (pairs) => {
      const stored = (await engine.count('articles', {})) + (await engine.count('authors', {}));
      const res = await visited(`/api/articles?filters${chain(pairs)}[author][name][$eq]=x`);
      expect(res).toMatchObject({ status: 200, data: [] });
      // Each of the 2 * pairs + 1 levels reaches every stored row at most about twice (a key, then its rows).
      expect(res.rows).toBeLessThanOrEqual(2 * (2 * pairs + 2) * stored);
    });

    it.each([2, 4])('a populate filter through %i author/articles pairs too', async (pairs) => {
      const stored = (await engine.count('articles', {})) + (await engine.count('authors', {}));
      const res = await visited(`/api/authors?populate[articles][filters]${chain(pairs)}[title][$eq]=x`);
      expect(res.status).toBe(200);
      expect(res.data).toHaveLength(AUTHORS.length);
      // One semi-join per author of the page (the populate joins each author's articles by itself).
      expect(res.rows).toBeLessThanOrEqual(AUTHORS.length * 2 * (2 * pairs + 2) * stored);
    });
  });

  describe('answers (every fast path switched off in turn gives the same)', () => {
    let app: express.Express;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await unboundedBlog(testEngine()));
      await seed(app);
    });
    afterAll(() => close());

    const titles = (res: request.Response): string[] => (res.body as { data: { title: string }[] }).data.map((a) => a.title).sort();

    it('a chain keeps the rows it reaches, "no such row" under $not too', async () => {
      const ann = Array.from({ length: PER_AUTHOR }, (_, i) => `Ann ${i}`);
      expect(titles(await get(app, `/api/articles?filters${chain(2)}[author][name][$eq]=Ann`))).toEqual(ann);
      expect(titles(await get(app, `/api/articles?filters${chain(2)}[title][$eq]=Bob%203`))).toEqual(Array.from({ length: PER_AUTHOR }, (_, i) => `Bob ${i}`));
      const others = titles(await get(app, `/api/articles?filters[$not]${chain(1)}[author][name][$eq]=Ann&pagination[pageSize]=100`));
      expect(others).toHaveLength((AUTHORS.length - 1) * PER_AUTHOR);
      expect(others.some((t) => t.startsWith('Ann'))).toBe(false);
    });

    it('a populate filter through a chain keeps the joined rows it reaches', async () => {
      const res = await get(app, `/api/authors?populate[articles][filters]${chain(1)}[title][$eq]=Cy%201&sort=name`);
      expect(res.status).toBe(200);
      const counts = (res.body as { data: { name: string; articles: unknown[] }[] }).data.map((a) => [a.name, a.articles.length]);
      expect(counts).toEqual([['Ann', 0], ['Bob', 0], ['Cy', PER_AUTHOR], ['Dee', 0]]);
    });
  });

  describe('the join budget (every engine: documents/filter-budget)', () => {
    let app: express.Express;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ app, close } = await createBlogApp({ seed: false, engine: testEngine() }));
      await seed(app);
    });
    afterAll(() => close());

    it('one fan-out per filter path runs; a chain whose fan-outs multiply past rest.maxJoinedRows is a 400 naming its path', async () => {
      expect((await get(app, `/api/articles?filters${chain(1)}[author][name][$eq]=x`)).status).toBe(200);
      // 48 article rows (drafts and published) x 6 articles per author x 6 x 6... over 10,000 at the third pair.
      for (const pairs of [3, 5]) {
        const res = await get(app, `/api/articles?filters${chain(pairs)}[author][name][$eq]=x`);
        expectStrapiError(res, 400, 'ValidationError');
        expect((res.body as { error: { message: string } }).error.message).toMatch(/^Invalid filters parameter: author(\.articles\.author)*(\.articles)? joins more than 10000 rows/);
        expect((res.body as { error: { details: object } }).error.details).toMatchObject({ key: 'author', source: 'query', param: 'filters', limit: 'maxJoinedRows', max: 10_000 });
      }
    });

    it('a populate\'s filters too: 400 naming the populate path when their fan-outs may multiply past the budget', async () => {
      expect((await get(app, `/api/authors?populate[articles][filters]${chain(1)}[title][$eq]=x`)).status).toBe(200);
      // A page of 25 (the page size bounds the parents) x 48 article rows x 6 x 6: over 10,000.
      const res = await get(app, `/api/authors?populate[articles][filters]${chain(2)}[title][$eq]=x`);
      expectStrapiError(res, 400, 'ValidationError');
      expect((res.body as { error: { message: string } }).error.message).toMatch(/^Invalid populate parameter: articles\.author\.articles(\.author\.articles)? joins more than 10000 rows/);
      expect((res.body as { error: { details: object } }).error.details).toMatchObject({ key: 'articles', param: 'populate', limit: 'maxJoinedRows' });
    });
  });
});
