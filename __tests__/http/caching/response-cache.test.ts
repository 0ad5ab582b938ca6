import request from 'supertest';
import { CUSTOM_KEY, FULL_KEY, READ_KEY } from '../auth/blog-auth-app';
import { cachedBlogApp } from './cache-apps';
import { bearer, registerUser } from '../users/users-helpers';

/** The `responseCache` option over HTTP: hits, keys per caller, `Cache-Control: no-cache`, users never cached. */
describe('response cache', () => {
  const blog = cachedBlogApp(1_000_000);
  const { hits } = blog;

  test('a repeated read is served from the cache, with the same bytes, ETag, 304 and HEAD', async () => {
    const first = await request(blog.ctx.app).get('/api/articles?populate=*');
    const before = hits();
    const second = await request(blog.ctx.app).get('/api/articles?populate=*');
    expect(hits()).toBe(before + 1);
    expect(second.text).toBe(first.text);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers.vary).toBe(first.headers.vary);
    const conditional = await request(blog.ctx.app).get('/api/articles?populate=*').set('if-none-match', first.headers.etag as string);
    expect(conditional.status).toBe(304);
    expect(conditional.text).toBe('');
    const head = await request(blog.ctx.app).head('/api/articles?populate=*');
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(first.headers.etag);
    expect(hits()).toBe(before + 3);
  });

  test('callers with different grants never share an entry', async () => {
    await request(blog.ctx.app).get('/api/articles?status=draft').set(bearer(FULL_KEY));
    const before = hits();
    const custom = await request(blog.ctx.app).get('/api/articles?status=draft').set(bearer(CUSTOM_KEY));
    const publicRead = await request(blog.ctx.app).get('/api/articles?status=draft');
    const readOnly = await request(blog.ctx.app).get('/api/articles?status=draft').set(bearer(READ_KEY));
    expect(hits()).toBe(before);
    expect([custom.status, publicRead.status, readOnly.status]).toEqual([403, 403, 200]);
  });

  test('Cache-Control: no-cache is answered by the route and refreshes the entry', async () => {
    const path = '/api/categories?sort=name';
    await request(blog.ctx.app).get(path);
    const before = hits();
    const fresh = await request(blog.ctx.app).get(path).set('cache-control', 'no-cache');
    expect(fresh.status).toBe(200);
    expect(hits()).toBe(before);
    await request(blog.ctx.app).get(path);
    expect(hits()).toBe(before + 1);
  });

  test('a write drops what it changes: the next read has the new bytes', async () => {
    const list = await request(blog.ctx.app).get('/api/authors?populate=articles').set(bearer(READ_KEY));
    const id = (list.body as { data: { documentId: string }[] }).data[0]!.documentId;
    await request(blog.ctx.app).put(`/api/authors/${id}`).set(bearer(FULL_KEY)).send({ data: { name: 'Renamed through REST' } });
    const after = await request(blog.ctx.app).get('/api/authors?populate=articles').set(bearer(READ_KEY));
    expect(after.text).toContain('Renamed through REST');
    await blog.ctx.router.documents('api::author.author').update({ documentId: id, data: { name: 'Renamed through the Document Service' } });
    expect((await request(blog.ctx.app).get('/api/authors?populate=articles').set(bearer(READ_KEY))).text).toContain('Renamed through the Document Service');
  });
});

describe('response cache and users', () => {
  test('a user\'s answers are never cached', async () => {
    const cached = await createUsersAppWithCache();
    const alice = await registerUser(cached.app, 'cache-alice');
    for (let i = 0; i < 3; i++) expect((await request(cached.app).get('/api/notes').set(bearer(alice.jwt))).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await request(cached.app).get('/api/users/me').set(bearer(alice.jwt))).status).toBe(200);
    expect(cached.router.responseCache!.hits).toBe(0);
    expect(cached.router.responseCache!.count).toBe(0);
  });
});

async function createUsersAppWithCache() {
  const { createContentRouter } = await import('../../../lib');
  const express = (await import('express')).default;
  const { noteType, tagType, JWT_SECRET } = await import('../users/users-helpers');
  const { testEngine } = await import('../../helpers/test-engine');
  const router = createContentRouter({
    contentTypes: [{ ...noteType, attributes: { ...noteType.attributes, tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'notes' } } }, tagType] as never,
    engine: testEngine(),
    logger: false,
    upload: false,
    responseCache: { maxBytes: 100_000 },
    auth: { users: { jwtSecret: JWT_SECRET, roles: { authenticated: { actions: ['api::note.note.find'] } } } },
  });
  await router.ready;
  return { app: express().use('/api', router), router };
}
