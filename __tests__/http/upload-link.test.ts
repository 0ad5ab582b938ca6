import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { createContentRouter, type ContentRouter } from '../../lib';
import { loadBlogModel } from '../../examples/blog/model';
import { makePng } from '../helpers/conformance/make-png';
import { testEngine } from '../helpers/test-engine';

/**
 * Issue 20: Strapi 5's upload form fields `ref`, `refId`, `field` link the uploaded files to an entry row (the
 * version whose numeric id is refId), in one transaction with the files' rows; every mistake is a 400 (Strapi
 * answers 500 for a documentId) and nothing is stored; linking needs the type's `update` action.
 */
const FULL = 'full-access-token-for-links-0123456789abcdef0123456789abcdef';
const UPLOADER = 'uploader-token-for-links-0123456789abcdef0123456789abcdef';

describe('POST /api/upload with ref, refId and field', () => {
  let app: express.Express;
  let router: ContentRouter;
  let dir: string;
  let article: { id: number; documentId: string };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'upload-link-'));
    const model = loadBlogModel();
    router = createContentRouter({
      contentTypes: model.contentTypes,
      components: model.components,
      engine: testEngine(),
      i18n: { locales: ['en', 'fr'], defaultLocale: 'en' },
      auth: {
        apiTokens: [
          { name: 'full', type: 'full-access', accessKey: FULL },
          { name: 'uploader', type: 'custom', accessKey: UPLOADER, permissions: ['plugin::upload.content-api.upload', 'plugin::upload.content-api.find', 'api::article.article.find'] },
        ],
      },
      upload: { directory: dir },
    });
    app = express();
    app.use('/api', router);
    await router.ready;
    const created = await request(app).post('/api/articles').set('authorization', `Bearer ${FULL}`).send({ data: { title: 'Linked', slug: 'linked' } });
    expect(created.status).toBe(201);
    article = created.body.data as { id: number; documentId: string };
  });
  afterAll(async () => {
    await router.engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  const upload = (token: string, fields: Record<string, string>, file: { name: string; bytes: Buffer } = { name: 'one.png', bytes: makePng(8, 8, 1) }) => {
    let req = request(app).post('/api/upload').set('authorization', `Bearer ${token}`);
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    return req.attach('files', file.bytes, file.name);
  };
  const fileCount = async (): Promise<number> => ((await request(app).get('/api/upload/files').set('authorization', `Bearer ${FULL}`)).body as unknown[]).length;
  // POST answers the published version: refId names that row, so the files show on the published version only.
  const version = async (populate: string, status = 'published') =>
    (await request(app).get(`/api/articles/${article.documentId}?status=${status}&populate=${populate}`).set('authorization', `Bearer ${FULL}`)).body.data as Record<string, unknown>;

  it('links to a multiple media field, appending, and to a single one, replacing', async () => {
    const first = await upload(FULL, { ref: 'api::article.article', refId: String(article.id), field: 'gallery' });
    expect(first.status).toBe(201);
    const second = await upload(FULL, { ref: 'api::article.article', refId: String(article.id), field: 'gallery' }, { name: 'two.png', bytes: makePng(8, 8, 2) });
    expect(second.status).toBe(201);
    expect(((await version('gallery')).gallery as { id: number }[]).map((f) => f.id)).toEqual([first.body[0].id, second.body[0].id]);
    expect((await version('gallery', 'draft')).gallery).toEqual([]);

    const cover = await upload(FULL, { ref: 'api::article.article', refId: String(article.id), field: 'cover' }, { name: 'cover.png', bytes: makePng(8, 8, 3) });
    expect(cover.status).toBe(201);
    expect(((await version('cover')).cover as { id: number }).id).toBe(cover.body[0].id);
  });

  it.each([
    [{ ref: 'api::article.article', refId: 'DOCUMENT', field: 'gallery' }, 'refId must be the numeric id of an entry of api::article.article (a documentId is not accepted'],
    [{ ref: 'api::article.article', refId: '999999', field: 'gallery' }, 'refId: api::article.article has no entry with id 999999'],
    [{ ref: 'api::nothing.nothing', refId: '1', field: 'gallery' }, 'ref must be the uid of a content type'],
    [{ ref: 'api::article.article', refId: '1', field: 'title' }, 'field must be a media attribute of api::article.article; "title" is not one'],
    [{ ref: 'api::article.article', field: 'gallery' }, 'refId must be given with ref, field'],
  ] as [Record<string, string>, string][])('%j is a 400 and stores nothing', async (fields, message) => {
    const before = await fileCount();
    const res = await upload(FULL, { ...fields, ...(fields.refId === 'DOCUMENT' ? { refId: article.documentId } : {}) });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    expect(res.body.error.message).toContain(message);
    expect(await fileCount()).toBe(before);
  });

  it('refuses a file the field does not accept (allowedTypes) and stores nothing', async () => {
    const before = await fileCount();
    const res = await upload(FULL, { ref: 'api::article.article', refId: String(article.id), field: 'gallery' }, { name: 'notes.txt', bytes: Buffer.from('plain text') });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('gallery of api::article.article does not accept text/plain files');
    expect(await fileCount()).toBe(before);
  });

  it('needs the update action of the type: an uploader without it gets 403 and nothing is stored', async () => {
    const before = await fileCount();
    const res = await upload(UPLOADER, { ref: 'api::article.article', refId: String(article.id), field: 'gallery' });
    expect(res.status).toBe(403);
    expect(await fileCount()).toBe(before);
    expect((await upload(UPLOADER, {})).status).toBe(201);
  });
});
