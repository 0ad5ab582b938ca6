import express from 'express';
import request from 'supertest';
import { createContentRouter, type ContentRouter, type ContentRouterOptions } from '../../../lib';
import { seedDemo } from '../../../examples/blog/seed';
import { FULL_KEY, READ_KEY } from '../auth/blog-auth-app';
import { bearer } from '../users/users-helpers';
import { blogRouterOptions, cachedBlogApp } from './cache-apps';

interface Doc {
  documentId: string;
  author?: { documentId: string } | null;
}
const docs = (res: request.Response): Doc[] => (res.body as { data: Doc[] }).data;

/** Per-document invalidation: a write drops exactly the answers that read what it wrote. */
describe('response cache: exact invalidation', () => {
  const blog = cachedBlogApp(2_000_000);
  const { hits } = blog;
  /** Whether a GET is served from the cache (and answers what the route answers). */
  const isHit = async (url: string): Promise<boolean> => {
    const before = hits();
    const res = await request(blog.ctx.app).get(url).set(bearer(READ_KEY));
    expect(res.status).toBe(200);
    return hits() === before + 1;
  };
  const POPULATED = '/api/articles?populate=author&sort=title';
  const PLAIN = '/api/articles?sort=title';
  const AUTHORS = '/api/authors?sort=name';

  test('a write to an author no article populates leaves the article lists hits; a list of authors is dropped', async () => {
    const created = await request(blog.ctx.app).post('/api/authors').set(bearer(FULL_KEY)).send({ data: { name: 'Lonely Author', email: 'lonely@example.com' } });
    expect(created.status).toBe(201);
    const lonely = (created.body as { data: Doc }).data.documentId;
    for (const url of [POPULATED, PLAIN, AUTHORS]) await request(blog.ctx.app).get(url).set(bearer(READ_KEY));
    const rename = await request(blog.ctx.app).put(`/api/authors/${lonely}`).set(bearer(FULL_KEY)).send({ data: { name: 'Still Lonely' } });
    expect(rename.status).toBe(200);
    expect(await isHit(POPULATED)).toBe(true);
    expect(await isHit(PLAIN)).toBe(true);
    expect(await isHit(AUTHORS)).toBe(false);
    expect((await request(blog.ctx.app).get(AUTHORS).set(bearer(READ_KEY))).text).toContain('Still Lonely');
  });

  test('a write to a populated author drops the lists populating it, not the others', async () => {
    const populated = docs(await request(blog.ctx.app).get(POPULATED).set(bearer(READ_KEY)));
    const author = populated.find((a) => a.author)!.author!.documentId;
    await request(blog.ctx.app).get(PLAIN).set(bearer(READ_KEY));
    await request(blog.ctx.app).get(`/api/authors/${author}`).set(bearer(READ_KEY));
    await blog.ctx.router.documents('api::author.author').update({ documentId: author, data: { name: 'Renamed Populated' } });
    expect(await isHit(PLAIN)).toBe(true);
    expect(await isHit(POPULATED)).toBe(false);
    expect(await isHit(`/api/authors/${author}`)).toBe(false);
    expect((await request(blog.ctx.app).get(POPULATED).set(bearer(READ_KEY))).text).toContain('Renamed Populated');
  });

  test('a findOne is dropped by a write to its document only', async () => {
    const [a, b] = docs(await request(blog.ctx.app).get(PLAIN).set(bearer(READ_KEY)));
    for (const d of [a!, b!]) await request(blog.ctx.app).get(`/api/articles/${d.documentId}`).set(bearer(READ_KEY));
    const put = await request(blog.ctx.app).put(`/api/articles/${a!.documentId}?status=published`).set(bearer(FULL_KEY)).send({ data: { description: 'Changed once' } });
    expect(put.status).toBe(200);
    expect(await isHit(`/api/articles/${b!.documentId}`)).toBe(true);
    expect(await isHit(`/api/articles/${a!.documentId}`)).toBe(false);
    expect((await request(blog.ctx.app).get(`/api/articles/${a!.documentId}`).set(bearer(READ_KEY))).text).toContain('Changed once');
  });

  test("connecting an article to an author drops the authors' lists that populate their articles (a join by contents)", async () => {
    const authors = docs(await request(blog.ctx.app).get('/api/authors?populate=articles&sort=name').set(bearer(READ_KEY)));
    const article = docs(await request(blog.ctx.app).get(POPULATED).set(bearer(READ_KEY))).find((d) => d.author)!;
    const other = authors.find((x) => x.documentId !== article.author!.documentId)!;
    await request(blog.ctx.app).get('/api/authors?populate=articles&sort=name').set(bearer(READ_KEY));
    await blog.ctx.router.documents('api::article.article').update({ documentId: article.documentId, data: { author: other.documentId }, status: 'published' } as never);
    expect(await isHit('/api/authors?populate=articles&sort=name')).toBe(false);
  });
});

/** Two routers on one engine (one MongoDB with MONGODB_URI): a write through one is never read stale through the other. */
describe('response cache: several routers on one database', () => {
  let a: { app: express.Express; router: ContentRouter };
  let b: { app: express.Express; router: ContentRouter };
  const setup = blogRouterOptions('cache-shared');
  beforeAll(async () => {
    const options: ContentRouterOptions = { ...setup.options, responseCache: { maxBytes: 1_000_000, shared: true } };
    const make = () => {
      const router = createContentRouter(options);
      return { router, app: express().use('/api', router) };
    };
    a = make();
    b = make();
    await a.router.ready;
    await b.router.ready;
    await seedDemo(a.app, FULL_KEY);
  });
  afterAll(() => setup.close());

  test('a write through router A is seen by the next read through router B, which kept its other entries', async () => {
    const url = '/api/articles?populate=author&sort=title';
    const other = '/api/categories?sort=name';
    const first = await request(b.app).get(url).set(bearer(READ_KEY));
    await request(b.app).get(other).set(bearer(READ_KEY));
    const hitsBefore = b.router.responseCache!.hits;
    expect((await request(b.app).get(url).set(bearer(READ_KEY))).text).toBe(first.text);
    expect(b.router.responseCache!.hits).toBe(hitsBefore + 1);
    const author = docs(first).find((d) => d.author)!.author!.documentId;
    const put = await request(a.app).put(`/api/authors/${author}`).set(bearer(FULL_KEY)).send({ data: { name: 'Written Through A' } });
    expect(put.status).toBe(200);
    const after = await request(b.app).get(url).set(bearer(READ_KEY));
    expect(after.text).toContain('Written Through A');
    expect(b.router.responseCache!.hits).toBe(hitsBefore + 1);
    await request(b.app).get(other).set(bearer(READ_KEY));
    expect(b.router.responseCache!.hits).toBe(hitsBefore + 2); // categories were not written: still a hit
  });

  test('router A keeps its own entries exact: its own write to authors leaves its plain article list a hit', async () => {
    const plain = '/api/articles?sort=title';
    await request(a.app).get(plain).set(bearer(READ_KEY));
    await request(a.app).get('/api/authors?sort=name').set(bearer(READ_KEY));
    const authors = docs(await request(a.app).get('/api/authors?sort=name').set(bearer(READ_KEY)));
    const before = a.router.responseCache!.hits;
    await request(a.app).put(`/api/authors/${authors[0]!.documentId}`).set(bearer(FULL_KEY)).send({ data: { name: 'Again Through A' } });
    await request(a.app).get(plain).set(bearer(READ_KEY));
    expect(a.router.responseCache!.hits).toBe(before + 1);
    expect((await request(b.app).get('/api/authors?sort=name').set(bearer(READ_KEY))).text).toContain('Again Through A');
  });
});
