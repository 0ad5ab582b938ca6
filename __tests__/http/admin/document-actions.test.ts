import express from 'express';
import request from 'supertest';
import { createContentRouter, type ContentRouterOptions } from '../../../lib';
import { expectStrapiError } from '../../helpers/http';
import { responseValidator } from '../../helpers/openapi/response-validator';
import { testEngine } from '../../helpers/test-engine';

/**
 * `POST /<route>/:documentId/actions/unpublish|discard-draft` (docs/admin.md): the draft & publish actions the
 * admin offers that are not a write of the form, with the type's `update` grant.
 */
const FULL = 'document-actions-full-access-token';
const CREATOR = 'document-actions-create-only-token';

const types: unknown[] = [
  {
    kind: 'collectionType', collectionName: 'articles', info: { singularName: 'article', pluralName: 'articles' },
    options: { draftAndPublish: true }, pluginOptions: { i18n: { localized: true } },
    attributes: { title: { type: 'string', unique: true } },
  },
  { kind: 'collectionType', collectionName: 'authors', info: { singularName: 'author', pluralName: 'authors' }, options: { draftAndPublish: false }, attributes: { name: { type: 'string' } } },
  { kind: 'singleType', collectionName: 'globals', info: { singularName: 'global', pluralName: 'globals' }, options: { draftAndPublish: true }, attributes: { siteName: { type: 'string' } } },
];

let check: ReturnType<typeof responseValidator>;
const events: { event: string; documentId: unknown }[] = [];

async function createApp(): Promise<express.Express> {
  const router = createContentRouter({
    contentTypes: types as ContentRouterOptions['contentTypes'],
    engine: testEngine(),
    logger: false,
    upload: false,
    i18n: { locales: ['en', 'fr'], defaultLocale: 'en' },
    auth: {
      apiTokens: [
        { name: 'full', type: 'full-access', accessKey: FULL },
        { name: 'creator', type: 'custom', accessKey: CREATOR, permissions: ['api::article.article.create', 'api::article.article.find', 'api::article.article.findOne'] },
      ],
    },
  });
  await router.ready;
  check = responseValidator(router.openapi({ serverUrl: '/api' }) as never);
  router.on('*', (payload) => void events.push({ event: payload.event, documentId: (payload as { entry?: { documentId?: unknown } }).entry?.documentId }));
  return express().use('/api', router);
}

const full = { authorization: `Bearer ${FULL}` };

describe('document actions: unpublish and discard-draft', () => {
  let app: express.Express;
  beforeAll(async () => {
    app = await createApp();
  });

  const publish = async (title: string): Promise<string> =>
    (await request(app).post('/api/articles?status=published').set(full).send({ data: { title } }).expect(201)).body.data.documentId as string;

  it('unpublish removes the published version, keeps the draft, and answers it', async () => {
    const id = await publish('To unpublish');
    const res = await request(app).post(`/api/articles/${id}/actions/unpublish`).set(full).expect(200);
    expect(res.body).toEqual({ data: expect.objectContaining({ documentId: id, title: 'To unpublish', publishedAt: null, locale: 'en' }), meta: {} });
    expect(check('POST', `/api/articles/${id}/actions/unpublish`, 200, res.body)).toMatchObject({ kind: 'valid' });
    await request(app).get(`/api/articles/${id}`).set(full).expect(404);
    expect((await request(app).get(`/api/articles/${id}?status=draft`).set(full).expect(200)).body.data.title).toBe('To unpublish');
    expectStrapiError(await request(app).post(`/api/articles/${id}/actions/unpublish`).set(full), 404, 'NotFoundError'); // nothing published any more
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toContainEqual({ event: 'entry.unpublish', documentId: id });
  });

  it('discard-draft puts the published version back into the draft', async () => {
    const id = await publish('Published title');
    await request(app).put(`/api/articles/${id}?status=draft`).set(full).send({ data: { title: 'Unsaved idea' } }).expect(200);
    const res = await request(app).post(`/api/articles/${id}/actions/discard-draft`).set(full).expect(200);
    expect(res.body.data).toMatchObject({ documentId: id, title: 'Published title', publishedAt: null });
    expect(check('POST', `/api/articles/${id}/actions/discard-draft`, 200, res.body)).toMatchObject({ kind: 'valid' });
    expect((await request(app).get(`/api/articles/${id}?status=draft`).set(full).expect(200)).body.data.title).toBe('Published title');
    expect((await request(app).get(`/api/articles/${id}`).set(full).expect(200)).body.data.title).toBe('Published title');
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toContainEqual({ event: 'entry.draft-discard', documentId: id });
  });

  it('acts on the locale given, refuses an unknown one', async () => {
    const id = await publish('English only');
    expectStrapiError(await request(app).post(`/api/articles/${id}/actions/unpublish?locale=fr`).set(full), 404, 'NotFoundError');
    expectStrapiError(await request(app).post(`/api/articles/${id}/actions/unpublish?locale=de`).set(full), 400, 'ValidationError', 'Invalid locale "de": the configured locales are en, fr');
    expectStrapiError(await request(app).post(`/api/articles/${id}/actions/unpublish?locale[$ne]=x`).set(full), 400, 'ValidationError');
    await request(app).get(`/api/articles/${id}`).set(full).expect(200); // still published
    await request(app).post(`/api/articles/${id}/actions/unpublish?locale=en`).set(full).expect(200);
  });

  it('takes the update grant: a create-only token gets a 403, and nothing changes', async () => {
    const id = await publish('Guarded');
    expectStrapiError(await request(app).post(`/api/articles/${id}/actions/unpublish`).set({ authorization: `Bearer ${CREATOR}` }), 403, 'ForbiddenError');
    expectStrapiError(await request(app).post(`/api/articles/${id}/actions/discard-draft`), 403, 'ForbiddenError'); // the Public role
    await request(app).get(`/api/articles/${id}`).set(full).expect(200);
  });

  it('single types: /<singularName>/actions/unpublish', async () => {
    await request(app).put('/api/global?status=published').set(full).send({ data: { siteName: 'Blog' } }).expect(200);
    expect((await request(app).post('/api/global/actions/unpublish').set(full).expect(200)).body.data).toMatchObject({ siteName: 'Blog', publishedAt: null });
    await request(app).get('/api/global').set(full).expect(404);
  });

  it('unknown documents, types without draft & publish and other methods', async () => {
    expectStrapiError(await request(app).post('/api/articles/nope/actions/discard-draft').set(full), 404, 'NotFoundError');
    expectStrapiError(await request(app).post('/api/authors/x/actions/unpublish').set(full), 404, 'NotFoundError');
    expect((await request(app).get('/api/articles/x/actions/unpublish').set(full)).status).toBe(405);
  });
});
