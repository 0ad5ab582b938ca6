import express from 'express';
import request from 'supertest';
import { createContentRouter, type AuthOptions, type ContentRouter } from '../../../lib';
import { testEngine } from '../../helpers/test-engine';
import { blogAuthOptions, createBlogAuthApp, CUSTOM_KEY, EXPIRED_KEY, FULL_KEY, READ_KEY, type BlogAuthApp } from '../auth/blog-auth-app';

const DRAFT_TITLE = 'A draft nobody sees';
const PREVIEW_KEY = 'preview-token-0123456789abcdef';
const PREVIEW_PERMISSIONS = ['api::article.article.find', 'api::article.article.findOne', 'api::article.article.findDrafts', 'api::about.about.find', 'api::about.about.findDrafts'];
const USER_HEADER = 'x-test-user';

const titles = (body: { data: { title: string }[] }): string[] => body.data.map((a) => a.title);
const FORBIDDEN = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };

/** The blog's auth (Public role: find/findOne, no findDrafts), a preview token, and a `resolve` hook for users. */
function strictAuth(extra: Partial<AuthOptions> = {}): AuthOptions {
  const auth = blogAuthOptions(extra);
  auth.apiTokens!.push({ name: 'preview', type: 'custom', accessKey: PREVIEW_KEY, permissions: PREVIEW_PERMISSIONS });
  // A user of the host app: the header names the actions it has (an editor has findDrafts, a reader does not).
  auth.resolve = async (req) => {
    const who = req.headers[USER_HEADER];
    if (who === 'editor') return { actions: PREVIEW_PERMISSIONS, subject: 'user:editor' };
    if (who === 'reader') return { actions: ['api::article.article.find', 'api::article.article.findOne', 'api::about.about.find'], subject: 'user:reader' };
    return null;
  };
  return auth;
}

async function draftId(ctx: BlogAuthApp): Promise<string> {
  const found = await ctx.router.documents('api::article.article').findMany(`status=draft&filters[title][$eq]=${DRAFT_TITLE}`);
  return found.data[0]!.documentId as string;
}

describe('by default drafts take the findDrafts grant (auth.drafts: findDrafts)', () => {
  let ctx: BlogAuthApp;
  let draftDoc: string;
  beforeAll(async () => {
    ctx = await createBlogAuthApp(strictAuth());
    draftDoc = await draftId(ctx);
  });
  afterAll(() => ctx.close());

  const get = (path: string, headers: Record<string, string> = {}) => request(ctx.app).get(path).set(headers);
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  test.each<[string, Record<string, string>, number]>([
    ['anonymous (the Public role without findDrafts)', {}, 403],
    ['a malformed Authorization header (public)', { authorization: 'Token abc' }, 403],
    ['a read-only token', bearer(READ_KEY), 200],
    ['a full-access token', bearer(FULL_KEY), 200],
    ['a custom token with findDrafts', bearer(PREVIEW_KEY), 200],
    ['a resolve user with findDrafts', { [USER_HEADER]: 'editor' }, 200],
    ['a resolve user with find and findOne only', { [USER_HEADER]: 'reader' }, 403],
  ])('%s: find, findOne and single-type find with ?status=draft -> %i', async (_name, headers, status) => {
    expect((await get('/api/articles?status=draft', headers)).status).toBe(status);
    expect((await get(`/api/articles/${draftDoc}?status=draft`, headers)).status).toBe(status);
    expect((await get('/api/about?status=draft', headers)).status).toBe(status);
  });

  test('a custom token without findDrafts: 403 on draft reads, its published reads unchanged', async () => {
    expect((await get('/api/articles?status=draft', bearer(CUSTOM_KEY))).body).toEqual(FORBIDDEN);
    expect((await get('/api/about?status=draft', bearer(CUSTOM_KEY))).status).toBe(403);
    expect((await get('/api/articles', bearer(CUSTOM_KEY))).status).toBe(200);
  });

  test('an expired token is still a 401, not a 403', async () => {
    expect((await get('/api/articles?status=draft', bearer(EXPIRED_KEY))).status).toBe(401);
  });

  test("the anonymous 403 is Strapi's ForbiddenError, and leaks no draft", async () => {
    for (const path of ['/api/articles?status=draft', `/api/articles/${draftDoc}?status=draft`, '/api/about?status=draft']) {
      const res = await get(path);
      expect(res.body).toEqual(FORBIDDEN);
    }
  });

  test('the tokens that may read drafts see the draft', async () => {
    for (const key of [READ_KEY, FULL_KEY, PREVIEW_KEY]) {
      expect(titles((await get('/api/articles?status=draft&fields[0]=title', bearer(key))).body)).toContain(DRAFT_TITLE);
    }
  });

  test('any status other than published counts as a draft read', async () => {
    expect((await get('/api/articles?status=nope')).status).toBe(403);
    expect((await get('/api/articles?status[0]=draft')).status).toBe(403);
    expect((await get('/api/articles?status=published')).status).toBe(200);
  });

  test('published reads are unchanged, and the draft stays invisible to them', async () => {
    const res = await get('/api/articles?fields[0]=title');
    expect(res.status).toBe(200);
    expect(titles(res.body)).not.toContain(DRAFT_TITLE);
    expect((await get(`/api/articles/${draftDoc}`)).status).toBe(404);
    expect((await get('/api/global')).status).toBe(200);
  });

  test('status on a type without draft & publish is ignored', async () => {
    expect((await get('/api/categories?status=draft')).status).toBe(200);
    expect((await get('/api/global?status=draft')).status).toBe(200);
  });

  test('populating articles from a type without draft & publish gives their published versions only', async () => {
    const res = await get('/api/categories?status=draft&populate[articles][fields][0]=title');
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain(DRAFT_TITLE);
  });

  test('writing a draft is a write permission: the response is the draft', async () => {
    const res = await request(ctx.app)
      .post('/api/articles?status=draft')
      .set('authorization', `Bearer ${FULL_KEY}`)
      .send({ data: { title: 'Written as draft' } });
    expect(res.status).toBe(201);
    expect(res.body.data.publishedAt).toBeNull();
  });

  test('the Document Service is server-side code: it reads drafts whatever the rule', async () => {
    const drafts = await ctx.router.documents('api::article.article').findMany({ status: 'draft', fields: ['title'] });
    expect(drafts.map((d) => d.title)).toContain(DRAFT_TITLE);
  });
});

describe('the Public role granted findDrafts reads drafts', () => {
  let ctx: BlogAuthApp;
  beforeAll(async () => {
    const auth = blogAuthOptions();
    auth.public = { actions: [...(auth.public as { actions: string[] }).actions, 'api::article.article.findDrafts'] };
    ctx = await createBlogAuthApp(auth);
  });
  afterAll(() => ctx.close());

  test('articles: granted; about: not granted', async () => {
    const res = await request(ctx.app).get('/api/articles?status=draft&fields[0]=title');
    expect(res.status).toBe(200);
    expect(titles(res.body)).toContain(DRAFT_TITLE);
    expect((await request(ctx.app).get('/api/about?status=draft')).status).toBe(403);
  });
});

describe("auth.drafts: 'strapi': any caller with find or findOne reads drafts (strapi#25326)", () => {
  let ctx: BlogAuthApp;
  beforeAll(async () => {
    ctx = await createBlogAuthApp(blogAuthOptions({ drafts: 'strapi' }));
  });
  afterAll(() => ctx.close());

  test('the public lists drafts with ?status=draft', async () => {
    const res = await request(ctx.app).get('/api/articles?status=draft&fields[0]=title');
    expect(res.status).toBe(200);
    expect(titles(res.body)).toContain(DRAFT_TITLE);
  });

  test('the public reads one draft-only document and the about draft', async () => {
    const draft = await draftId(ctx);
    expect((await request(ctx.app).get(`/api/articles/${draft}`)).status).toBe(404);
    expect((await request(ctx.app).get(`/api/articles/${draft}?status=draft`)).status).toBe(200);
    expect((await request(ctx.app).get('/api/about?status=draft')).status).toBe(200);
  });

  test('a custom token with find reads drafts too', async () => {
    expect((await request(ctx.app).get('/api/articles?status=draft').set('authorization', `Bearer ${CUSTOM_KEY}`)).status).toBe(200);
  });
});

/** Two draft & publish types: drafts of `tag` reached through `post.tags` in a draft read. */
describe('populated drafts of another type', () => {
  const post = {
    kind: 'collectionType',
    info: { singularName: 'post', pluralName: 'posts' },
    options: { draftAndPublish: true },
    attributes: { title: { type: 'string' }, tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' } },
  };
  const tag = { kind: 'collectionType', info: { singularName: 'tag', pluralName: 'tags' }, options: { draftAndPublish: true }, attributes: { name: { type: 'string' } } };
  const BASE = ['api::post.post.find', 'api::post.post.findOne', 'api::post.post.findDrafts', 'api::tag.tag.find'];
  let app: express.Express;
  let router: ContentRouter;

  beforeAll(async () => {
    const auth: AuthOptions = {
      public: { actions: BASE },
      apiTokens: [
        { name: 'posts-only', type: 'custom', accessKey: 'posts-only-token', permissions: BASE },
        { name: 'both', type: 'custom', accessKey: 'both-token', permissions: [...BASE, 'api::tag.tag.findDrafts'] },
        { name: 'read', type: 'read-only', accessKey: 'read-token' },
      ],
    };
    router = createContentRouter({ contentTypes: [post, tag], engine: testEngine(), auth, upload: false });
    app = express();
    app.use('/api', router);
    await router.ready;
    const t = await router.documents('api::tag.tag').create({ name: 'published tag' });
    await router.documents('api::tag.tag').update(t.documentId as string, { name: 'draft tag name' }, { status: 'draft' });
    await router.documents('api::post.post').create({ title: 'p', tags: [t.documentId] });
  });
  afterAll(() => router.engine.close());

  const get = (path: string, key?: string) => {
    const req = request(app).get(path);
    return key ? req.set('authorization', `Bearer ${key}`) : req;
  };

  test.each([
    ['a custom token', 'posts-only-token'],
    ['the Public role', undefined],
  ])('without tag.findDrafts a draft read leaves the tags out (%s)', async (_name, key) => {
    const res = await get('/api/posts?status=draft&populate=*', key);
    expect(res.status).toBe(200);
    expect(res.body.data[0]).not.toHaveProperty('tags');
    expect(JSON.stringify(res.body)).not.toContain('draft tag name');
    expect((await get('/api/posts?status=draft&populate[tags]=true', key)).body.data[0]).not.toHaveProperty('tags');
  });

  test('without tag.findDrafts, filtering a draft read on tags is 400 Invalid key tags', async () => {
    const res = await get('/api/posts?status=draft&filters[tags][name][$eq]=x', 'posts-only-token');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Invalid key tags');
  });

  test('a published read still populates the published tags', async () => {
    const res = await get('/api/posts?populate=tags', 'posts-only-token');
    expect(res.status).toBe(200);
    expect(res.body.data[0].tags.map((t: { name: string }) => t.name)).toEqual(['published tag']);
  });

  test.each([
    ['a custom token with tag.findDrafts', 'both-token'],
    ['a read-only token', 'read-token'],
  ])('%s: the draft read shows the tag drafts', async (_name, key) => {
    const res = await get('/api/posts?status=draft&populate=tags', key);
    expect(res.status).toBe(200);
    expect(res.body.data[0].tags.map((t: { name: string }) => t.name)).toEqual(['draft tag name']);
  });
});
