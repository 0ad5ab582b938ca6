import express from 'express';
import request from 'supertest';
import { createContentRouter, type Engine, type LifecycleHooks } from '../../../lib';
import { httpComponents, httpContentTypes } from '../../fixtures/http-model';
import { everyActionPublic } from '../../helpers/every-action';
import { createTestApp, expectStrapiError, fieldError, type TestApp } from '../../helpers/http';

/**
 * Writes racing each other (issue 10): on the memory engine and, with MONGODB_URI, on MongoDB, where they run
 * as concurrent transactions (write conflicts retried by the engine). Every answer is a 2xx or a clean 4xx.
 */
const N = 12;
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const uniqueError = (path: string, value: unknown) => ({ errors: [fieldError([path], 'This attribute must be unique', value)] });

/** A second app instance on the same engine: its own router, document service and in-process state. */
function secondInstance(engine: Engine, lifecycles: LifecycleHooks): express.Express {
  const router = createContentRouter({
    contentTypes: httpContentTypes, components: httpComponents, engine, upload: false, lifecycles,
    i18n: { locales: ['en', 'fr'], defaultLocale: 'en' }, auth: everyActionPublic(httpContentTypes),
  });
  return express().use('/api', router);
}

/** A beforeCreate hook that waits a little: it widens the window between a write's reads and its transaction. */
const slow = async (e: { data?: Record<string, unknown> }): Promise<unknown> => {
  await new Promise((resolve) => setTimeout(resolve, 20));
  return e.data;
};

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.engine.close();
});
/** Replaces the suite's app by one with lifecycle hooks (closing the previous engine). */
async function withHooks(lifecycles: LifecycleHooks): Promise<void> {
  await t.engine.close();
  t = await createTestApp({ lifecycles });
}

describe('concurrent creates', () => {
  it('many parallel creates of one type: all 201, distinct ids, nothing lost', async () => {
    const res = await Promise.all(range(N).map((i) => request(t.app).post('/api/makers').send({ data: { title: `maker ${i}` } })));
    expect(res.map((r) => r.status)).toEqual(range(N).map(() => 201));
    const ids = res.map((r) => r.body.data.id as number);
    expect(new Set(ids).size).toBe(N);
    const list = await request(t.app).get('/api/makers?pagination[pageSize]=100&sort=title');
    expect(list.body.data.map((d: { title: string }) => d.title).sort()).toEqual(range(N).map((i) => `maker ${i}`).sort());
    expect(list.body.data.map((d: { id: number }) => d.id).sort()).toEqual([...ids].sort());
  });

  it('parallel creates with one unique value: exactly one 201, the others the 400 unique error', async () => {
    const res = await Promise.all(range(6).map(() => request(t.app).post('/api/makers').send({ data: { title: 'same' } })));
    expect(res.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    for (const r of res.filter((x) => x.status === 400)) {
      expectStrapiError(r, 400, 'ValidationError', 'This attribute must be unique');
      expect(r.body.error.details).toEqual(uniqueError('title', 'same'));
    }
    expect((await request(t.app).get('/api/makers')).body.data).toHaveLength(1);
  });

  it('a unique value is unique per locale: parallel creates in two locales both land', async () => {
    const res = await Promise.all(['en', 'fr', 'en', 'fr'].map((l) => request(t.app).post(`/api/gadgets?locale=${l}`).send({ data: { name: 'gg', code: 'ABC' } })));
    expect(res.map((r) => r.status).sort()).toEqual([201, 201, 400, 400]);
    expect((await request(t.app).get('/api/gadgets?locale=*')).body.data).toHaveLength(2);
  });
});

describe('concurrent relation writes', () => {
  it('parallel connects on one relation keep every target', async () => {
    const owner = (await request(t.app).post('/api/makers').send({ data: { title: 'owner' } })).body.data.documentId as string;
    const targets: string[] = [];
    for (const i of range(8)) targets.push((await request(t.app).post('/api/makers').send({ data: { title: `rival ${i}` } })).body.data.documentId);
    const res = await Promise.all(targets.map((d) => request(t.app).put(`/api/makers/${owner}`).send({ data: { rivals: { connect: [d] } } })));
    expect(res.map((r) => r.status)).toEqual(targets.map(() => 200));
    const read = await request(t.app).get(`/api/makers/${owner}?populate=rivals`);
    expect(read.body.data.rivals.map((r: { documentId: string }) => r.documentId).sort()).toEqual([...targets].sort());
  });
});

describe('the database enforces unique values the check before the write cannot see', () => {
  it('publishing a draft whose value another document already published is the 400 unique error', async () => {
    const a = (await request(t.app).post('/api/gadgets').send({ data: { name: 'aa', code: 'ABC' } })).body.data.documentId as string;
    expect((await request(t.app).put(`/api/gadgets/${a}?status=draft`).send({ data: { code: 'XYZ' } })).status).toBe(200);
    const b = await request(t.app).post('/api/gadgets?status=draft').send({ data: { name: 'bb', code: 'ABC' } });
    expect(b.status).toBe(201);
    const publish = await request(t.app).put(`/api/gadgets/${b.body.data.documentId}?status=published`).send({ data: {} });
    expectStrapiError(publish, 400, 'ValidationError', 'This attribute must be unique');
    expect(publish.body.error.details).toEqual(uniqueError('code', 'ABC'));
    const published = (await request(t.app).get('/api/gadgets')).body.data;
    expect(published.map((g: { documentId: string; code: string }) => [g.documentId, g.code])).toEqual([[a, 'ABC']]);
  });
});

describe('concurrent writes of one document', () => {
  it('parallel PUTs creating the same localization: all 200, one localization', async () => {
    await withHooks({ 'api::gadget.gadget': { beforeCreate: slow } });
    const doc = (await request(t.app).post('/api/gadgets').send({ data: { name: 'en name' } })).body.data.documentId as string;
    const res = await Promise.all(range(5).map((i) => request(t.app).put(`/api/gadgets/${doc}?locale=fr`).send({ data: { name: `fr ${i}` } })));
    expect(res.map((r) => r.status)).toEqual(range(5).map(() => 200));
    const fr = await request(t.app).get('/api/gadgets?locale=fr&status=draft');
    expect(fr.body.data.map((g: { documentId: string }) => g.documentId)).toEqual([doc]);
  });
});

describe('single types', () => {
  it('parallel first PUTs in two locales create one document with both localizations', async () => {
    await withHooks({ 'api::homepage.homepage': { beforeCreate: slow } });
    const res = await Promise.all(range(6).map((i) => request(t.app).put(`/api/homepage?locale=${i % 2 ? 'fr' : 'en'}`).send({ data: { headline: `h${i}` } })));
    expect(res.map((r) => r.status)).toEqual(range(6).map(() => 200));
    const documentIds = new Set(res.map((r) => r.body.data.documentId as string));
    expect(documentIds.size).toBe(1);
    const [documentId] = documentIds;
    const rows = await t.router.documents('api::homepage.homepage').findMany('locale=*');
    expect(rows.data.map((d) => [d.documentId, d.locale]).sort()).toEqual([[documentId, 'en'], [documentId, 'fr']]);
  });

  it('two app instances on one engine: parallel first PUTs still create one document', async () => {
    const lifecycles = { 'api::setting.setting': { beforeCreate: slow } };
    await withHooks(lifecycles);
    const other = secondInstance(t.engine, lifecycles);
    const res = await Promise.all(range(6).map((i) => request(i % 2 ? other : t.app).put('/api/setting').send({ data: { siteName: `S${i}` } })));
    expect(res.map((r) => r.status)).toEqual(range(6).map(() => 200));
    expect(new Set(res.map((r) => r.body.data.documentId)).size).toBe(1);
    const all = await t.router.documents('api::setting.setting').findMany('');
    expect(all.data).toHaveLength(1);
  });

  it('creating a second document of a single type through the service is a 400, not a second document', async () => {
    const settings = t.router.documents('api::setting.setting');
    await settings.create({ siteName: 'one' });
    await expect(settings.create({ siteName: 'two' })).rejects.toMatchObject({ name: 'ValidationError', message: expect.stringContaining('single type') });
    expect((await settings.findMany('')).data.map((d) => d.siteName)).toEqual(['one']);
  });

  it('a deleted single type is created again on the next PUT', async () => {
    const first = await request(t.app).put('/api/setting').send({ data: { siteName: 'A' } });
    expect((await request(t.app).delete('/api/setting')).status).toBe(204);
    const again = await request(t.app).put('/api/setting').send({ data: { siteName: 'B' } });
    expect(again.status).toBe(200);
    expect(again.body.data.documentId).not.toBe(first.body.data.documentId);
    expect((await request(t.app).get('/api/setting')).body.data.siteName).toBe('B');
  });
});

describe('atomic writes', () => {
  it('a throwing afterCreate hook leaves no row', async () => {
    const failing = await createTestApp({ lifecycles: { 'api::maker.maker': { afterCreate: () => { throw new Error('hook failed'); } } } });
    const res = await request(failing.app).post('/api/makers').send({ data: { title: 'ghost', part: { label: 'p' } } });
    expect(res.status).toBe(500);
    expect(await failing.engine.count('makers', {})).toBe(0);
    await failing.engine.close();
  });

  it('a rejected relation payload keeps none of the other changes', async () => {
    const doc = (await request(t.app).post('/api/makers').send({ data: { title: 'kept' } })).body.data.documentId as string;
    const res = await request(t.app).put(`/api/makers/${doc}`).send({ data: { title: 'changed', rivals: { connect: ['missing'] } } });
    expect(res.status).toBe(400);
    expect((await request(t.app).get(`/api/makers/${doc}`)).body.data.title).toBe('kept');
  });
});
