import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { ConfigurationError, createContentRouter, type ContentRouterOptions } from '../../../lib';
import { expectStrapiError } from '../../helpers/http';
import { responseValidator } from '../../helpers/openapi/response-validator';
import { testEngine } from '../../helpers/test-engine';

/**
 * `GET /api/content-router/model` (docs/admin.md): what the admin reads. Each kind of caller sees only the types
 * it may act on, with its own permissions: the Public role, a user of an "Editor" role (no delete), a read-only,
 * a custom and a full-access API token.
 */
const FULL = 'model-test-full-access-token';
const READ_ONLY = 'model-test-read-only-token';
const CUSTOM = 'model-test-custom-token';
const JWT_SECRET = 'model-test-users-permissions-secret';

const article = {
  kind: 'collectionType',
  collectionName: 'articles',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Blog article' },
  options: { draftAndPublish: true },
  pluginOptions: { i18n: { localized: true } },
  attributes: {
    title: { type: 'string', required: true, maxLength: 80 },
    slug: { type: 'uid', targetField: 'title' },
    secret: { type: 'password', default: 'hunter2-default' },
    note: { type: 'text', private: true },
    color: { type: 'customField', customField: 'plugin::color-picker.color' },
    seo: { type: 'component', component: 'shared.seo', repeatable: false },
    blocks: { type: 'dynamiczone', components: ['shared.quote'] },
    author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' },
    cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
  },
};
const author = {
  kind: 'collectionType',
  collectionName: 'authors',
  info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
  options: { draftAndPublish: false },
  attributes: { name: { type: 'string' }, articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' } },
};
const global = {
  kind: 'singleType',
  collectionName: 'globals',
  info: { singularName: 'global', pluralName: 'globals', displayName: 'Global' },
  options: { draftAndPublish: true },
  attributes: { siteName: { type: 'string' } },
};
const components = {
  'shared.seo': { collectionName: 'components_shared_seos', info: { displayName: 'Seo' }, attributes: { metaTitle: { type: 'string' }, social: { type: 'component', component: 'shared.social', repeatable: true } } },
  'shared.social': { collectionName: 'components_shared_socials', info: { displayName: 'Social' }, attributes: { network: { type: 'enumeration', enum: ['x', 'mastodon'] } } },
  'shared.quote': { collectionName: 'components_shared_quotes', info: { displayName: 'Quote' }, attributes: { body: { type: 'text' } } },
  'shared.unused': { collectionName: 'components_shared_unuseds', info: { displayName: 'Unused' }, attributes: { x: { type: 'string' } } },
};

const TYPES = ['api::article.article', 'api::author.author', 'api::global.global'];
const EDITOR_ACTIONS = [
  ...TYPES.flatMap((uid) => ['find', 'findOne', 'create', 'update', 'findDrafts'].map((a) => `${uid}.${a}`)),
  'plugin::upload.content-api.find', 'plugin::upload.content-api.findOne', 'plugin::upload.content-api.upload',
  'plugin::i18n.locales.listLocales', 'plugin::users-permissions.user.me',
];

const everything = { find: true, findOne: true, create: true, update: true, delete: true };

/** The OpenAPI document's check of each app's answers (router.openapi() documents the route). */
const checks = new WeakMap<express.Express, ReturnType<typeof responseValidator>>();

async function createApp(contentTypes: unknown[] = [article, author, global]): Promise<express.Express> {
  const router = createContentRouter({
    contentTypes: contentTypes as ContentRouterOptions['contentTypes'],
    components,
    customFields: { 'plugin::color-picker.color': { type: 'string' } },
    engine: testEngine(),
    logger: false,
    i18n: { locales: ['en', { code: 'fr', name: 'French (fr)' }], defaultLocale: 'en' },
    upload: { directory: fs.mkdtempSync(path.join(os.tmpdir(), 'cr-model-uploads-')) },
    auth: {
      public: { actions: contentTypes.includes(article) ? ['api::article.article.find', 'api::article.article.findOne'] : [] },
      apiTokens: [
        { name: 'full', type: 'full-access', accessKey: FULL },
        { name: 'ro', type: 'read-only', accessKey: READ_ONLY },
        ...(contentTypes.includes(author) ? [{ name: 'author-writer', type: 'custom' as const, accessKey: CUSTOM, permissions: ['api::author.author.create'] }] : []),
      ],
      users: { jwtSecret: JWT_SECRET, roles: contentTypes.length === 3 ? { editor: { name: 'Editor', actions: EDITOR_ACTIONS } } : {} },
    },
  });
  await router.ready;
  const app = express();
  app.use('/api', router);
  checks.set(app, responseValidator(router.openapi({ serverUrl: '/api' }) as never));
  return app;
}

type Model = {
  contentTypes: { uid: string; displayName: string; route: string; kind: string; attributes: Record<string, Record<string, unknown>>; permissions: Record<string, boolean> }[];
  components: { uid: string; displayName: string; category: string; attributes: Record<string, unknown> }[];
  locales: unknown[];
  media: Record<string, boolean>;
  caller: unknown;
};

async function model(app: express.Express, token?: string): Promise<Model> {
  const req = request(app).get('/api/content-router/model');
  const res = await (token ? req.set('Authorization', `Bearer ${token}`) : req);
  expect(res.status).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.body.meta).toEqual({});
  expect(checks.get(app)!('GET', '/api/content-router/model', 200, res.body)).toEqual({ kind: 'valid', operation: 'get /content-router/model' });
  return res.body.data as Model;
}

const permissionsByUid = (m: Model): Record<string, Record<string, boolean>> => Object.fromEntries(m.contentTypes.map((ct) => [ct.uid, ct.permissions]));

describe('GET /content-router/model', () => {
  let app: express.Express;
  beforeAll(async () => {
    app = await createApp();
  });

  it('the Public role: only the types it may act on, the components they reach, caller null', async () => {
    const m = await model(app);
    expect(permissionsByUid(m)).toEqual({
      'api::article.article': { find: true, findOne: true, create: false, update: false, delete: false, publish: false, readDrafts: false },
    });
    expect(m.caller).toBeNull();
    expect(m.components.map((c) => c.uid)).toEqual(['shared.quote', 'shared.seo', 'shared.social']);
    expect(m.components.find((c) => c.uid === 'shared.seo')).toMatchObject({ category: 'shared', displayName: 'Seo' });
    expect(m.locales).toEqual([{ code: 'en', name: 'English (en)', isDefault: true }, { code: 'fr', name: 'French (fr)', isDefault: false }]);
    expect(m.media).toEqual({ find: false, findOne: false, upload: false, update: false, destroy: false });
  });

  it('describes each type and its attributes as schema.json does, never a value of a password', async () => {
    const m = await model(app, FULL);
    const a = m.contentTypes.find((ct) => ct.uid === 'api::article.article')!;
    expect(a).toMatchObject({ kind: 'collectionType', singularName: 'article', pluralName: 'articles', displayName: 'Blog article', route: 'articles', draftAndPublish: true, localized: true });
    expect(Object.keys(a.attributes)).toEqual(['title', 'slug', 'secret', 'note', 'color', 'seo', 'blocks', 'author', 'cover']);
    expect(a.attributes).toMatchObject({
      title: { type: 'string', required: true, maxLength: 80 },
      slug: { type: 'uid', targetField: 'title' },
      note: { type: 'text', private: true },
      color: { type: 'string', customField: 'plugin::color-picker.color' },
      blocks: { type: 'dynamiczone', components: ['shared.quote'] },
      author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' },
      cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
    });
    expect(a.attributes.secret).toEqual({ type: 'password', private: true });
    expect(JSON.stringify(m)).not.toContain('hunter2');
    expect(m.contentTypes.find((ct) => ct.uid === 'api::global.global')).toMatchObject({ kind: 'singleType', route: 'global' });
  });

  it('a user of the Editor role: its grants, no delete, with its name and role', async () => {
    const reg = await request(app).post('/api/auth/local/register').send({ username: 'edna', email: 'edna@example.com', password: 'Edna-Pass-1' }).expect(200);
    const roles = await request(app).get('/api/users-permissions/roles').set('Authorization', `Bearer ${FULL}`).expect(200);
    const editor = (roles.body.roles as { id: number; type: string }[]).find((r) => r.type === 'editor')!;
    await request(app).put(`/api/users/${reg.body.user.id}`).set('Authorization', `Bearer ${FULL}`).send({ role: editor.id }).expect(200);
    const m = await model(app, reg.body.jwt as string);
    const editing = { find: true, findOne: true, create: true, update: true, delete: false, readDrafts: true };
    expect(permissionsByUid(m)).toEqual({
      'api::article.article': { ...editing, publish: true },
      'api::author.author': { ...editing, publish: false, readDrafts: false },
      'api::global.global': { ...editing, publish: true },
    });
    expect(m.media).toEqual({ find: true, findOne: true, upload: true, update: true, destroy: false });
    expect(m.caller).toEqual({ kind: 'user', id: reg.body.user.id, username: 'edna', email: 'edna@example.com', role: { name: 'Editor', type: 'editor' } });
  });

  it('a read-only token: every type, reads only (drafts included)', async () => {
    const m = await model(app, READ_ONLY);
    const reading = { find: true, findOne: true, create: false, update: false, delete: false, publish: false };
    expect(permissionsByUid(m)).toEqual({
      'api::article.article': { ...reading, readDrafts: true },
      'api::author.author': { ...reading, readDrafts: false },
      'api::global.global': { ...reading, readDrafts: true },
    });
    expect(m.media).toEqual({ find: true, findOne: true, upload: false, update: false, destroy: false });
    expect(m.caller).toEqual({ kind: 'token', type: 'read-only' });
  });

  it('a custom token: only the type of its one grant, and only the components that type reaches', async () => {
    const m = await model(app, CUSTOM);
    expect(permissionsByUid(m)).toEqual({
      'api::author.author': { find: false, findOne: false, create: true, update: false, delete: false, publish: false, readDrafts: false },
    });
    expect(m.components).toEqual([]);
    expect(m.locales).toEqual([]); // no localized type in sight
    expect(m.caller).toEqual({ kind: 'token', type: 'custom' });
  });

  it('a full-access token: everything', async () => {
    const m = await model(app, FULL);
    expect(permissionsByUid(m)).toEqual({
      'api::article.article': { ...everything, publish: true, readDrafts: true },
      'api::author.author': { ...everything, publish: false, readDrafts: false },
      'api::global.global': { ...everything, publish: true, readDrafts: true },
    });
    expect(m.media).toEqual({ find: true, findOne: true, upload: true, update: true, destroy: true });
    expect(m.caller).toEqual({ kind: 'token', type: 'full-access' });
  });

  it('a token that is neither an API token nor a valid JWT is a 401; other methods a 405', async () => {
    expectStrapiError(await request(app).get('/api/content-router/model').set('Authorization', 'Bearer not-a-token'), 401, 'UnauthorizedError');
    const post = await request(app).post('/api/content-router/model').set('Authorization', `Bearer ${FULL}`).send({});
    expect([post.status, post.headers.allow]).toEqual([405, 'HEAD, GET']); // as /i18n/locales (Koa's plain 405, as Strapi)
  });

  it('a caller the host recognised (auth.resolve): its grants and its subject', async () => {
    const router = createContentRouter({
      contentTypes: [global] as ContentRouterOptions['contentTypes'],
      engine: testEngine(),
      logger: false,
      upload: false,
      auth: { resolve: async (req) => (req.headers['x-sso-user'] === 'alice' ? { actions: ['api::global.global.find'], subject: 'sso:alice' } : null) },
    });
    await router.ready;
    const host = express().use('/api', router);
    const res = await request(host).get('/api/content-router/model').set('x-sso-user', 'alice').expect(200);
    expect(res.body.data.caller).toEqual({ kind: 'host', subject: 'sso:alice' });
    expect(res.body.data.contentTypes.map((ct: { uid: string }) => ct.uid)).toEqual(['api::global.global']);
    expect(res.headers['cache-control']).toBe('no-store');
    const anonymous = await request(host).get('/api/content-router/model').expect(200);
    expect(anonymous.body.data).toMatchObject({ caller: null, contentTypes: [] });
  });

  it('refuses a collection type whose route is /content-router at start-up; a single type of that name is served', async () => {
    const clash = { ...author, collectionName: 'crs', info: { singularName: 'cr', pluralName: 'content-router' }, attributes: { name: { type: 'string' } } };
    let error: unknown;
    try {
      await createApp([clash]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).code).toBe('CR_DUPLICATE_API_ID');
    expect((error as Error).message).toMatch(/"content-router" is reserved/);

    const single = { ...global, collectionName: 'crs', info: { singularName: 'content-router', pluralName: 'content-routers' } };
    const other = await createApp([single]);
    await request(other).get('/api/content-router').set('Authorization', `Bearer ${FULL}`).expect(404); // no document yet: the type's own route
    expect((await model(other, FULL)).contentTypes.map((ct) => ct.route)).toEqual(['content-router']);
  });
});
