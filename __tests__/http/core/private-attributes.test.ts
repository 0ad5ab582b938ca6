import request from 'supertest';
import { createTestApp, expectStrapiError, type TestApp } from '../../helpers/http';

/**
 * Private attributes (gadget.note, maker.internal, homepage.hidden, the component's hush) and passwords
 * (maker.secret, setting.apiKey) are accepted on input but never returned, and cannot be queried.
 */
const HIDDEN = ['note', 'internal', 'secret', 'hidden', 'hush', 'apiKey'];
let t: TestApp;
let makerId = '';
let otherId = '';
const writes: request.Response[] = [];

/** Every key of every object nested in `value`. */
function allKeys(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) allKeys(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      allKeys(v, out);
    }
  }
  return out;
}

function expectNothingHidden(res: request.Response): void {
  expect(res.status).toBeLessThan(300);
  expect([...allKeys(res.body)].filter((k) => HIDDEN.includes(k))).toEqual([]);
  for (const secret of ['pw-secret', 'internal-x', 'note-x', 'hidden-x', 'hush-x', 'key-x']) expect(res.text).not.toContain(secret);
}

beforeAll(async () => {
  t = await createTestApp();
  const part = { label: 'p', hush: 'hush-x', notes: [{ body: 'n' }] };
  const other = await request(t.app).post('/api/makers').send({ data: { title: 'Other', secret: 'pw-secret', internal: 'internal-x', parts: [part, part] } });
  otherId = other.body.data.documentId;
  const maker = await request(t.app).post('/api/makers').send({
    data: { title: 'Acme', secret: 'pw-secret', internal: 'internal-x', partner: otherId, rivals: [otherId], part, parts: [part, part], zone: [{ __component: 'parts.part', ...part }] },
  });
  makerId = maker.body.data.documentId;
  writes.push(other, maker);
  writes.push(await request(t.app).put(`/api/makers/${makerId}?populate=*`).send({ data: { secret: 'pw-secret', internal: 'internal-x', part } }));
  writes.push(await request(t.app).post('/api/gadgets?populate=*').send({ data: { name: 'Gg', note: 'note-x' } }));
  writes.push(await request(t.app).put('/api/homepage').send({ data: { headline: 'H', hidden: 'hidden-x' } }));
  writes.push(await request(t.app).put('/api/setting').send({ data: { siteName: 'S', apiKey: 'key-x' } }));
  writes.push(await request(t.app).put('/api/setting').send({ data: { apiKey: 'key-x' } }));
});

it('writes accept private attributes and passwords without error, and their responses omit them', () => {
  expect(writes.map((w) => w.status)).toEqual([201, 201, 200, 201, 200, 200, 200]);
  for (const w of writes) expectNothingHidden(w);
});

it.each([
  '/api/makers',
  '/api/makers?populate=*',
  '/api/makers?fields=*',
  '/api/gadgets',
  '/api/gadgets?fields=*&populate=*',
  '/api/setting',
  '/api/setting?fields=*',
  '/api/homepage?populate=*',
])('reads omit them: %s', async (url) => {
  expectNothingHidden(await request(t.app).get(url));
});

it('findOne and nested populate omit them, in v5 and v4 formats', async () => {
  const populate = 'populate[partner][populate][parts][populate]=notes&populate[rivals]=true&populate[part][populate]=*&populate[parts]=true&populate[zone]=true';
  const v5 = await request(t.app).get(`/api/makers/${makerId}?${populate}`);
  expectNothingHidden(v5);
  expect(v5.body.data.partner).toEqual(expect.objectContaining({ documentId: otherId, title: 'Other' }));
  expect(v5.body.data.partner.parts).toHaveLength(2);
  expect(v5.body.data.zone[0]).toEqual(expect.objectContaining({ __component: 'parts.part', label: 'p' }));
  expectNothingHidden(await request(t.app).get(`/api/makers/${makerId}?${populate}`).set('Strapi-Response-Format', 'v4'));
});

it.each([
  ['fields[0]=secret', 'secret'],
  ['fields=internal', 'internal'],
  ['filters[secret][$eq]=pw-secret', 'secret'],
  ['filters[internal][$startsWith]=i', 'internal'],
  ['filters[partner][secret][$eq]=pw-secret', 'secret'],
  ['filters[$or][0][secret][$null]=false', 'secret'],
  ['filters[part][hush][$eq]=hush-x', 'hush'],
  ['sort=secret', 'secret'],
  ['sort[0][partner][internal]=asc', 'internal'],
  ['populate[partner][fields][0]=secret', 'secret'],
  ['populate[partner][filters][internal][$eq]=x', 'internal'],
  ['populate[partner][sort]=secret', 'secret'],
])('querying a hidden attribute is a 400 Invalid key: %s', async (q, key) => {
  const res = await request(t.app).get(`/api/makers?${q}`);
  expectStrapiError(res, 400, 'ValidationError', expect.stringMatching(new RegExp(`^Invalid key ${key}`)) as unknown as string);
  expect(res.body.error.details).toEqual(expect.objectContaining({ key, source: 'query' }));
});

it('single types refuse queries on their passwords too', async () => {
  expectStrapiError(await request(t.app).get('/api/setting?fields[0]=apiKey'), 400, 'ValidationError', 'Invalid key apiKey');
  expectStrapiError(await request(t.app).get('/api/homepage?fields[0]=hidden'), 400, 'ValidationError', 'Invalid key hidden');
});
