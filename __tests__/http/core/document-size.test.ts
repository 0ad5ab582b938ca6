import request from 'supertest';
import { memoryEngine } from '../../../lib';
import { createTestApp, expectStrapiError, type TestApp } from '../../helpers/http';

/**
 * MongoDB refuses a result document over its 16 MB limit (BSONObjectTooLarge, 10334); the memory engine's
 * `maxDocumentBytes` does the same, here with a 64 KiB limit so that small rows reach it. Each list row is its
 * own result document: a page whose rows together are over the limit is served; one row over it is a 400.
 */
const LIMIT = 64 * 1024;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ engine: memoryEngine({ ephemeral: true, maxDocumentBytes: LIMIT }) });
});
afterAll(() => t.engine.close());

const title = (c: string): string => c.repeat(30 * 1024);

it('a page of rows that together are over the limit is served: each row is its own document', async () => {
  const ids: string[] = [];
  for (const c of ['a', 'b', 'c']) {
    const res = await request(t.app).post('/api/makers').send({ data: { title: title(c) } });
    expect(res.status).toBe(201);
    ids.push(res.body.data.documentId as string);
  }
  const list = await request(t.app).get('/api/makers?pagination[pageSize]=3');
  expect(list.status).toBe(200);
  expect(list.body.data.map((m: { title: string }) => m.title[0])).toEqual(['a', 'b', 'c']);
  expect(list.body.meta.pagination.total).toBe(3);
  expect(JSON.stringify(list.body.data).length).toBeGreaterThan(LIMIT);

  // One row whose populated relations put it over the limit: a 400 naming the limit, on lists and findOne.
  const big = await request(t.app).post('/api/makers').send({ data: { title: 'big', rivals: ids } });
  expect(big.status).toBe(201);
  const message = "The response is too large: one entry with its populated relations and components is over the database's document size limit (65536 bytes). Populate fewer relations or select fewer fields.";
  for (const url of ['/api/makers?populate=rivals', `/api/makers/${big.body.data.documentId as string}?populate=rivals`]) {
    const res = await request(t.app).get(url);
    expectStrapiError(res, 400, 'ValidationError', message);
    expect(res.body.error.details).toEqual({ limit: LIMIT });
  }
  expect((await request(t.app).get(`/api/makers/${big.body.data.documentId as string}`)).status).toBe(200);
});
