import express from 'express';
import request from 'supertest';
import { createContentRouter, type AuthOptions, type ContentRouter } from '../../../lib';
import { testEngine } from '../../helpers/test-engine';
import { blogAuthOptions, createBlogAuthApp, FULL_KEY, READ_KEY, type BlogAuthApp } from './blog-auth-app';

const DRAFT_TITLE = 'A draft nobody sees';
const PREVIEW_KEY = 'preview-token-0123456789abcdef';
const PREVIEW_PERMISSIONS = ['api::article.article.find', 'api::article.article.findOne', 'api::article.article.findDrafts', 'api::about.about.find', 'api::about.about.findDrafts'];

const titles = (body: { data: { title: string }[] }): string[] => body.data.map((a) => a.title);

describe('default: any caller with find may read drafts (Strapi, strapi#25326)', () => {
  let ctx: BlogAuthApp;
  beforeAll(async () => {
    ctx = await createBlogAuthApp();
  });
  afterAll(() => ctx.close());

  test('the public lists drafts with ?status=draft', async () => {
    const res = await request(ctx.app).get('/api/articles?status=draft&fields[0]=title');
    expect(res.status).toBe(200);
    expect(titles(res.body)).toContain(DRAFT_TITLE);
  });

  test('the public reads one draft-only document and the about draft', async () => {
    const draft = (await ctx.router.documents('api::article.article').findMany(`status=draft&filters[title][$eq]=${DRAFT_TITLE}`)).data[0]!;
    expect((await request(ctx.app).get(`/api/articles/${draft.documentId as string}`)).status).toBe(404);
    expect((await request(ctx.app).get(`/api/articles/${draft.documentId as string}?status=draft`)).status).toBe(200);
    expect((await request(ctx.app).get('/api/about?status=draft')).status).toBe(200);
  });
});

describe('auth.draftsRequirePermission: true', () => {
  let ctx: BlogAuthApp;
  let draftDoc: string;
  beforeAll(async () => {
    const auth = blogAuthOptions({ draftsRequirePermission: true });
    auth.apiTokens!.push({ name: 'preview', type: 'custom', accessKey: PREVIEW_KEY, permissions: PREVIEW_PERMISSIONS });
    ctx = await createBlogAuthApp(auth);
    draftDoc = (await ctx.router.documents('api::article.article').findMany(`status=draft&filters[title][$eq]=${DRAFT_TITLE}`)).data[0]!.documentId as string;
  });
  afterAll(() => ctx.close());

  const get = (path: string, key?: string) => {
    const req = request(ctx.app).get(path);
    return key ? req.set('authorization', `Bearer ${key}`) : req;
  };

  test.each([
    ['public', undefined, 403],
    ['read-only token', READ_KEY, 403],
    ['full-access token', FULL_KEY, 200],
    ['custom token with findDrafts', PREVIEW_KEY, 200],
  ])('%s: find, findOne and single find with ?status=draft -> %i', async (_name, key, status) => {
    expect((await get('/api/articles?status=draft', key)).status).toBe(status);
    expect((await get(`/api/articles/${draftDoc}?status=draft`, key)).status).toBe(status);
    expect((await get('/api/about?status=draft', key)).status).toBe(status);
  });

  test('any status other than published counts as draft', async () => {
    expect((await get('/api/articles?status=nope')).status).toBe(403);
    expect((await get('/api/articles?status=published')).status).toBe(200);
  });

  test('published reads are unchanged, and the draft stays invisible to them', async () => {
    const res = await get('/api/articles?fields[0]=title');
    expect(res.status).toBe(200);
    expect(titles(res.body)).not.toContain(DRAFT_TITLE);
    expect((await get('/api/global')).status).toBe(200);
  });

  test('the 403 body is the Strapi one', async () => {
    const res = await get('/api/articles?status=draft');
    expect(res.body).toEqual({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
  });

  test('status on a type without draft & publish is ignored', async () => {
    expect((await get('/api/categories?status=draft')).status).toBe(200);
    expect((await get('/api/global?status=draft')).status).toBe(200);
  });

  test('the custom token sees the draft', async () => {
    const res = await get('/api/articles?status=draft&fields[0]=title', PREVIEW_KEY);
    expect(titles(res.body)).toContain(DRAFT_TITLE);
  });

  test('writing a draft is a write permission: the response is the draft', async () => {
    const res = await request(ctx.app)
      .post('/api/articles?status=draft')
      .set('authorization', `Bearer ${FULL_KEY}`)
      .send({ data: { title: 'Written as draft' } });
    expect(res.status).toBe(201);
    expect(res.body.data.publishedAt).toBeNull();
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
      draftsRequirePermission: true,
      apiTokens: [
        { name: 'posts-only', type: 'custom', accessKey: 'posts-only-token', permissions: BASE },
        { name: 'both', type: 'custom', accessKey: 'both-token', permissions: [...BASE, 'api::tag.tag.findDrafts'] },
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

  const get = (path: string, key: string) => request(app).get(path).set('authorization', `Bearer ${key}`);

  test('without tag.findDrafts a draft read leaves the tags out', async () => {
    const res = await get('/api/posts?status=draft&populate=*', 'posts-only-token');
    expect(res.status).toBe(200);
    expect(res.body.data[0]).not.toHaveProperty('tags');
    expect(JSON.stringify(res.body)).not.toContain('draft tag name');
    expect((await get('/api/posts?status=draft&populate[tags]=true', 'posts-only-token')).body.data[0]).not.toHaveProperty('tags');
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

  test('with tag.findDrafts the draft read shows the tag drafts', async () => {
    const res = await get('/api/posts?status=draft&populate=tags', 'both-token');
    expect(res.status).toBe(200);
    expect(res.body.data[0].tags.map((t: { name: string }) => t.name)).toEqual(['draft tag name']);
  });
});
