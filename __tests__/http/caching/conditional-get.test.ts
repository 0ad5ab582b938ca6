import express from 'express';
import request from 'supertest';
import { strongEtag } from '../../../lib/http/conditional-get';
import { createBlogAuthApp, FULL_KEY, READ_KEY, type BlogAuthApp } from '../auth/blog-auth-app';
import { bearer, createUsersApp, registerUser, type UsersApp } from '../users/users-helpers';

/**
 * Conditional GET (RFC 9110 section 13.1.2): every 2xx GET/HEAD carries a strong ETag over the bytes sent, even
 * when the host app turned Express's own ETags off, and a current tag in If-None-Match answers 304 with no body
 * and the 200's ETag, Cache-Control and Vary (section 15.4.5).
 */
const raw = (res: request.Response): Buffer => res.body as Buffer;
const binary = (req: request.Test): request.Test =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

describe('conditional GET on the Content API and the media library', () => {
  let ctx: BlogAuthApp;
  let app: express.Express;
  let fileId: number;
  let articleId: string;
  beforeAll(async () => {
    ctx = await createBlogAuthApp();
    app = express();
    app.set('etag', false); // the host's choice for its own routes: the router's answers still carry ETags
    app.use('/api', ctx.router);
    const files = await request(app).get('/api/upload/files').set(bearer(FULL_KEY));
    fileId = (files.body as { id: number }[])[0]!.id;
    const articles = await request(app).get('/api/articles');
    articleId = (articles.body as { data: { documentId: string }[] }).data[0]!.documentId;
  });
  afterAll(() => ctx.close());

  const routes = (): [string, Record<string, string>][] => [
    ['/api/articles', {}],
    ['/api/articles?populate=*&pagination[pageSize]=100', bearer(READ_KEY)],
    [`/api/articles/${articleId}?populate=*`, {}],
    ['/api/global?populate=*', bearer(FULL_KEY)],
    ['/api/articles', { 'strapi-response-format': 'v4' }],
    ['/api/upload/files', bearer(FULL_KEY)],
    [`/api/upload/files/${fileId}`, bearer(FULL_KEY)],
    ['/api/i18n/locales', bearer(FULL_KEY)],
  ];

  test('every 2xx GET carries the strong ETag of its exact bytes; If-None-Match with it answers 304', async () => {
    for (const [path, headers] of routes()) {
      const res = await binary(request(app).get(path).set(headers));
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      const etag = res.headers.etag as string;
      expect({ path, etag }).toEqual({ path, etag: strongEtag(raw(res)) });
      for (const condition of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
        const again = await binary(request(app).get(path).set(headers).set('if-none-match', condition));
        expect({ path, condition, status: again.status, length: raw(again).length }).toEqual({ path, condition, status: 304, length: 0 });
        expect(again.headers.etag).toBe(etag);
        expect(again.headers.vary).toBe(res.headers.vary);
        expect(again.headers['cache-control']).toBe(res.headers['cache-control']);
        expect(again.headers['content-type']).toBeUndefined();
      }
      const stale = await binary(request(app).get(path).set(headers).set('if-none-match', '"stale", W/"older"'));
      expect({ path, status: stale.status, same: raw(stale).equals(raw(res)) }).toEqual({ path, status: 200, same: true });
    }
  });

  test('HEAD has the GET ETag and no body; with If-None-Match, 304', async () => {
    const get = await binary(request(app).get('/api/articles?sort=title'));
    const head = await request(app).head('/api/articles?sort=title');
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['content-length']).toBe(String(raw(get).length));
    const conditional = await request(app).head('/api/articles?sort=title').set('if-none-match', get.headers.etag as string);
    expect(conditional.status).toBe(304);
  });

  test('a write changes the tag: the old one answers 200 with the new bytes', async () => {
    const path = `/api/articles/${articleId}`;
    const before = await request(app).get(path);
    const update = await request(app).put(path).set(bearer(FULL_KEY)).send({ data: { title: 'A new title for the ETag' } });
    expect(update.status).toBe(200);
    expect(update.headers.etag).toBeUndefined();
    const after = await request(app).get(path).set('if-none-match', before.headers.etag as string);
    expect(after.status).toBe(200);
    expect(after.body.data.title).toBe('A new title for the ETag');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  test.each(['/api/articles?sort=title&populate=author', '/api/articles?sort=title'])('a list read again keeps its tag until a write changes its bytes, then has the new bytes\' tag: %s', async (path) => {
    const first = await binary(request(app).get(path));
    const again = await binary(request(app).get(path));
    expect(again.headers.etag).toBe(first.headers.etag);
    const listed = (JSON.parse(raw(first).toString()) as { data: { documentId: string; title: string }[] }).data[1]!;
    const update = await request(app).put(`/api/articles/${listed.documentId}`).set(bearer(FULL_KEY)).send({ data: { title: `${listed.title}!` } });
    expect(update.status).toBe(200);
    const after = await binary(request(app).get(path));
    expect(raw(after).equals(raw(first))).toBe(false);
    expect(after.headers.etag).toBe(strongEtag(raw(after)));
    expect(after.headers.etag).not.toBe(first.headers.etag);
  });

  test('errors and writes are not conditional', async () => {
    const missing = await request(app).get('/api/articles/no-such-document').set('if-none-match', '*');
    expect(missing.status).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
    const created = await request(app).post('/api/categories').set(bearer(FULL_KEY)).set('if-none-match', '*').send({ data: { name: 'Conditional' } });
    expect(created.status).toBe(201);
    expect(created.headers.etag).toBeUndefined();
  });
});

describe('conditional GET on a per-user answer', () => {
  let t: UsersApp;
  beforeAll(async () => {
    t = await createUsersApp();
  });

  test('/users/me has an ETag and a 304, and stays private', async () => {
    const alice = await registerUser(t.app, 'etag-alice');
    const me = await request(t.app).get('/api/users/me').set(bearer(alice.jwt));
    expect(me.status).toBe(200);
    expect(me.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(me.headers['cache-control']).toBe('private');
    const again = await request(t.app).get('/api/users/me').set(bearer(alice.jwt)).set('if-none-match', me.headers.etag as string);
    expect(again.status).toBe(304);
    expect(again.headers['cache-control']).toBe('private');
  });
});
