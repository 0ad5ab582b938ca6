import request from 'supertest';
import { createTestApp, expectJson, expectStrapiError, type TestApp } from '../../helpers/http';

/** Spec table 4.1 on both kinds of collection type: gadgets (draft & publish, localized), makers (neither). */
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe('POST /api/:pluralApiId', () => {
  it('answers 201 with the flat created document and meta {} (draft & publish, localized)', async () => {
    const res = await request(t.app).post('/api/gadgets').send({ data: { name: 'Lamp', size: 'm' } });
    expect(res.status).toBe(201);
    expectJson(res);
    expect(res.body).toEqual({
      data: expect.objectContaining({
        id: expect.any(Number), documentId: 'doc0001', name: 'Lamp', size: 'm', count: 5, flag: false,
        createdAt: ISO, updatedAt: ISO, publishedAt: ISO, locale: 'en',
      }),
      meta: {},
    });
  });

  it('answers 201 with publishedAt and without locale on a type with neither feature', async () => {
    const res = await request(t.app).post('/api/makers').send({ data: { title: 'Acme' } });
    expect(res.status).toBe(201);
    expect(res.body.meta).toEqual({});
    expect(res.body.data).toEqual({ id: 1, documentId: 'doc0001', title: 'Acme', createdAt: ISO, updatedAt: ISO, publishedAt: ISO });
  });

  it('?status=draft creates only a draft: 404 on the published read, found with status=draft', async () => {
    const created = await request(t.app).post('/api/gadgets?status=draft').send({ data: { name: 'Draft' } });
    expect(created.status).toBe(201);
    expect(created.body.data.publishedAt).toBeNull();
    const id = created.body.data.documentId as string;
    expectStrapiError(await request(t.app).get(`/api/gadgets/${id}`), 404, 'NotFoundError', 'Not Found');
    const draft = await request(t.app).get(`/api/gadgets/${id}?status=draft`);
    expect(draft.status).toBe(200);
    expect(draft.body.data.name).toBe('Draft');
  });

  it('?locale=fr creates a document in fr only', async () => {
    const res = await request(t.app).post('/api/gadgets?locale=fr').send({ data: { name: 'Lampe' } });
    expect(res.status).toBe(201);
    expect(res.body.data.locale).toBe('fr');
    expect((await request(t.app).get('/api/gadgets')).body.data).toEqual([]);
    expect((await request(t.app).get('/api/gadgets?locale=fr')).body.data).toHaveLength(1);
  });
});

describe('GET /api/:pluralApiId', () => {
  it('an empty list has data [] and meta.pagination', async () => {
    const res = await request(t.app).get('/api/makers');
    expect(res.status).toBe(200);
    expectJson(res);
    expect(res.body).toEqual({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
  });

  it('lists by row id ascending by default; a republished entry moves to the end', async () => {
    for (const name of ['cc', 'aa', 'bb']) await request(t.app).post('/api/gadgets').send({ data: { name } });
    const list = await request(t.app).get('/api/gadgets');
    expect(list.body.data.map((d: { name: string }) => d.name)).toEqual(['cc', 'aa', 'bb']);
    const ids = list.body.data.map((d: { id: number }) => d.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const first = list.body.data[0].documentId as string;
    await request(t.app).put(`/api/gadgets/${first}`).send({ data: { text: 'again' } });
    const after = await request(t.app).get('/api/gadgets');
    expect(after.body.data.map((d: { name: string }) => d.name)).toEqual(['aa', 'bb', 'cc']);
  });

  it('meta.pagination follows page/pageSize and start/limit', async () => {
    for (let i = 0; i < 5; i++) await request(t.app).post('/api/makers').send({ data: { title: `m${i}` } });
    const page = await request(t.app).get('/api/makers?pagination[page]=2&pagination[pageSize]=2');
    expect(page.body.meta).toEqual({ pagination: { page: 2, pageSize: 2, pageCount: 3, total: 5 } });
    expect(page.body.data.map((d: { title: string }) => d.title)).toEqual(['m2', 'm3']);
    const offset = await request(t.app).get('/api/makers?pagination[start]=3&pagination[limit]=10');
    expect(offset.body.meta).toEqual({ pagination: { start: 3, limit: 10, total: 5 } });
    expect(offset.body.data).toHaveLength(2);
    const noCount = await request(t.app).get('/api/makers?pagination[withCount]=false');
    expect(noCount.body.meta).toEqual({ pagination: { page: 1, pageSize: 25 } });
    expectStrapiError(await request(t.app).get('/api/makers?pagination[page]=1&pagination[limit]=2'), 400, 'PaginationError',
      'Cannot use both page & offset pagination in the same query');
  });

  it('caps pageSize at rest.maxLimit and uses rest.defaultLimit', async () => {
    const small = await createTestApp({ rest: { defaultLimit: 2, maxLimit: 3 } });
    for (let i = 0; i < 4; i++) await request(small.app).post('/api/makers').send({ data: { title: `m${i}` } });
    expect((await request(small.app).get('/api/makers')).body.meta.pagination).toEqual({ page: 1, pageSize: 2, pageCount: 2, total: 4 });
    const capped = await request(small.app).get('/api/makers?pagination[pageSize]=50');
    expect(capped.body.meta.pagination).toEqual({ page: 1, pageSize: 3, pageCount: 2, total: 4 });
    expect(capped.body.data).toHaveLength(3);
  });
});

describe('GET /api/:pluralApiId/:documentId', () => {
  it('answers the document with meta {}', async () => {
    const created = await request(t.app).post('/api/makers').send({ data: { title: 'Acme' } });
    const res = await request(t.app).get(`/api/makers/${created.body.data.documentId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: created.body.data, meta: {} });
  });

  it.each(['/api/makers/nope', '/api/gadgets/nope', '/api/gadgets/nope?status=draft'])('404 NotFoundError JSON for an unknown documentId: %s', async (url) => {
    expectStrapiError(await request(t.app).get(url), 404, 'NotFoundError', 'Not Found');
  });

  it('a missing localization is 404; locale=* on findOne is 404', async () => {
    const created = await request(t.app).post('/api/gadgets').send({ data: { name: 'Lamp' } });
    const id = created.body.data.documentId as string;
    expectStrapiError(await request(t.app).get(`/api/gadgets/${id}?locale=fr`), 404, 'NotFoundError');
    expectStrapiError(await request(t.app).get(`/api/gadgets/${id}?locale=*`), 404, 'NotFoundError');
  });
});

describe('PUT /api/:pluralApiId/:documentId', () => {
  it('answers 200 with the updated document and meta {}; the update is partial', async () => {
    const created = await request(t.app).post('/api/makers').send({ data: { title: 'Acme' } });
    const id = created.body.data.documentId as string;
    const res = await request(t.app).put(`/api/makers/${id}`).send({ data: { title: 'Acme 2' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: expect.objectContaining({ documentId: id, title: 'Acme 2', id: created.body.data.id }), meta: {} });
    const gadget = await request(t.app).post('/api/gadgets').send({ data: { name: 'Lamp', size: 's' } });
    const g = await request(t.app).put(`/api/gadgets/${gadget.body.data.documentId}`).send({ data: { text: 'x' } });
    expect(g.body.data).toEqual(expect.objectContaining({ name: 'Lamp', size: 's', text: 'x' }));
  });

  it('null clears a field', async () => {
    const created = await request(t.app).post('/api/gadgets').send({ data: { name: 'Lamp', size: 's' } });
    const res = await request(t.app).put(`/api/gadgets/${created.body.data.documentId}`).send({ data: { size: null } });
    expect(res.body.data.size).toBeNull();
  });

  it('404 for an unknown documentId', async () => {
    expectStrapiError(await request(t.app).put('/api/makers/nope').send({ data: { title: 'x' } }), 404, 'NotFoundError', 'Not Found');
  });

  it('?locale=fr creates a localization with the same documentId', async () => {
    const created = await request(t.app).post('/api/gadgets').send({ data: { name: 'Lamp', count: 3 } });
    const id = created.body.data.documentId as string;
    const fr = await request(t.app).put(`/api/gadgets/${id}?locale=fr`).send({ data: { name: 'Lampe' } });
    expect(fr.status).toBe(200);
    expect(fr.body.data).toEqual(expect.objectContaining({ documentId: id, locale: 'fr', name: 'Lampe', count: 3 }));
    expect((await request(t.app).get(`/api/gadgets/${id}`)).body.data.name).toBe('Lamp');
  });
});

describe('DELETE /api/:pluralApiId/:documentId', () => {
  it('answers 204 with an empty body and removes the document', async () => {
    const created = await request(t.app).post('/api/gadgets').send({ data: { name: 'Lamp' } });
    const id = created.body.data.documentId as string;
    const res = await request(t.app).delete(`/api/gadgets/${id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectStrapiError(await request(t.app).get(`/api/gadgets/${id}`), 404, 'NotFoundError');
    expectStrapiError(await request(t.app).get(`/api/gadgets/${id}?status=draft`), 404, 'NotFoundError');
  });

  it.each(['/api/gadgets/nope', '/api/makers/nope'])('answers 204 for an unknown documentId too: %s', async (url) => {
    const res = await request(t.app).delete(url);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });

  it('?locale=fr removes only that localization', async () => {
    const created = await request(t.app).post('/api/gadgets').send({ data: { name: 'Lamp' } });
    const id = created.body.data.documentId as string;
    await request(t.app).put(`/api/gadgets/${id}?locale=fr`).send({ data: { name: 'Lampe' } });
    expect((await request(t.app).delete(`/api/gadgets/${id}?locale=fr`)).status).toBe(204);
    expectStrapiError(await request(t.app).get(`/api/gadgets/${id}?locale=fr`), 404, 'NotFoundError');
    expect((await request(t.app).get(`/api/gadgets/${id}`)).body.data.name).toBe('Lamp');
  });
});
