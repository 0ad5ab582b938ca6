import request from 'supertest';
import { createTestApp, expectJson, expectStrapiError, type TestApp } from '../../helpers/http';

/** Spec table 4.2 on both kinds of single type: homepage (draft & publish, localized), setting (neither). */
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

describe.each([
  ['/api/homepage', { headline: 'Hi' }, { headline: 'Hello' }, true],
  ['/api/setting', { siteName: 'Site' }, { siteName: 'Site 2' }, false],
])('%s', (url, first, second, localized) => {
  it('GET on a missing single type is 404 NotFoundError JSON', async () => {
    expectStrapiError(await request(t.app).get(url), 404, 'NotFoundError', 'Not Found');
  });

  it('PUT creates when missing (200, meta {}), then updates the same document', async () => {
    const created = await request(t.app).put(url).send({ data: first });
    expect(created.status).toBe(200);
    expectJson(created);
    expect(created.body).toEqual({ data: expect.objectContaining({ ...first, documentId: 'doc0001', publishedAt: expect.any(String) }), meta: {} });
    expect('locale' in created.body.data).toBe(localized);
    const updated = await request(t.app).put(url).send({ data: second });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual(expect.objectContaining({ ...second, documentId: 'doc0001' }));
    const read = await request(t.app).get(url);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: updated.body.data, meta: {} });
  });

  it('DELETE answers 204 empty, also when missing; GET is 404 afterwards', async () => {
    const missing = await request(t.app).delete(url);
    expect(missing.status).toBe(204);
    expect(missing.text).toBe('');
    await request(t.app).put(url).send({ data: first });
    const res = await request(t.app).delete(url);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectStrapiError(await request(t.app).get(url), 404, 'NotFoundError');
  });

  it('POST is 405 text/plain, and the plural path is 404', async () => {
    const res = await request(t.app).post(url).send({ data: first });
    expect(res.status).toBe(405);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toBe('Method Not Allowed');
    expectStrapiError(await request(t.app).get(`${url}s`), 404, 'NotFoundError');
    expectStrapiError(await request(t.app).get(`${url}/doc0001`), 404, 'NotFoundError');
  });

  it('PUT validates the body (required attribute on create)', async () => {
    const res = await request(t.app).put(url).send({ data: {} });
    expectStrapiError(res, 400, 'ValidationError');
    expect(res.body.error.details.errors).toHaveLength(1);
  });
});

describe('single type with draft & publish and i18n', () => {
  it('PUT ?status=draft writes a draft only: published GET stays 404', async () => {
    const draft = await request(t.app).put('/api/homepage?status=draft').send({ data: { headline: 'Soon' } });
    expect(draft.status).toBe(200);
    expect(draft.body.data.publishedAt).toBeNull();
    expectStrapiError(await request(t.app).get('/api/homepage'), 404, 'NotFoundError');
    expect((await request(t.app).get('/api/homepage?status=draft')).body.data.headline).toBe('Soon');
  });

  it('PUT ?locale=fr adds the fr localization of the same document; DELETE ?locale=fr removes only it', async () => {
    await request(t.app).put('/api/homepage').send({ data: { headline: 'Hi' } });
    const fr = await request(t.app).put('/api/homepage?locale=fr').send({ data: { headline: 'Salut' } });
    expect(fr.status).toBe(200);
    expect(fr.body.data).toEqual(expect.objectContaining({ documentId: 'doc0001', locale: 'fr', headline: 'Salut' }));
    expect((await request(t.app).get('/api/homepage?locale=fr')).body.data.headline).toBe('Salut');
    expect((await request(t.app).delete('/api/homepage?locale=fr')).status).toBe(204);
    expectStrapiError(await request(t.app).get('/api/homepage?locale=fr'), 404, 'NotFoundError');
    expect((await request(t.app).get('/api/homepage')).body.data.headline).toBe('Hi');
  });

  it('GET with locale=* is 404', async () => {
    await request(t.app).put('/api/homepage').send({ data: { headline: 'Hi' } });
    expectStrapiError(await request(t.app).get('/api/homepage?locale=*'), 404, 'NotFoundError');
  });
});

describe('single type without draft & publish', () => {
  it('applies defaults on create and keeps a single document', async () => {
    const res = await request(t.app).put('/api/setting').send({ data: { siteName: 'S' } });
    expect(res.body.data.mode).toBe('light');
    await request(t.app).put('/api/setting').send({ data: { mode: 'dark' } });
    const read = await request(t.app).get('/api/setting');
    expect(read.body.data).toEqual(expect.objectContaining({ siteName: 'S', mode: 'dark', id: res.body.data.id }));
  });
});

describe('concurrent writes to a missing single type', () => {
  it('five parallel PUTs create one document and update it', async () => {
    // The hook widens the window between "is there a document?" and the insert.
    const slow = async (e: { data?: Record<string, unknown> }) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return e.data;
    };
    const app = await createTestApp({ lifecycles: { 'api::setting.setting': { beforeCreate: slow } } });
    const puts = await Promise.all([0, 1, 2, 3, 4].map((i) => request(app.app).put('/api/setting').send({ data: { siteName: `S${i}` } })));
    expect(puts.map((r) => [r.status, r.body.data.documentId])).toEqual([0, 1, 2, 3, 4].map(() => [200, 'doc0001']));
    const all = await app.router.documents('api::setting.setting').findMany('');
    expect(all.data.map((d) => d.documentId)).toEqual(['doc0001']);
  });
});
