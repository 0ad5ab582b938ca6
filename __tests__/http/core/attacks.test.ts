import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { createTestApp, expectNoStack, type TestApp } from '../../helpers/http';

/**
 * Hostile inputs on every endpoint: none may answer 500, hang or leak a stack trace, and the data written
 * before the attack must be intact afterwards.
 */
let t: TestApp;
/** Node's own limit (16 KB of headers, URL included) answers 431 before the app; raise it to test the app. */
let server: Server;
const baseline: Record<string, unknown> = {};
let gadgetId = '';
let victimId = '';

beforeAll(async () => {
  t = await createTestApp();
  server = createServer({ maxHeaderSize: 1024 * 1024 }, t.app);
  const g = await request(t.app).post('/api/gadgets').send({ data: { name: 'Base', code: 'BAS', meta: { k: 1 } } });
  gadgetId = g.body.data.documentId;
  const v = await request(t.app).post('/api/gadgets').send({ data: { name: 'Victim' } });
  victimId = v.body.data.documentId;
  const m = await request(t.app).post('/api/makers').send({ data: { title: 'Maker', parts: [{ label: 'a' }, { label: 'b' }] } });
  await request(t.app).put('/api/setting').send({ data: { siteName: 'Site' } });
  await request(t.app).put('/api/homepage').send({ data: { headline: 'Home' } });
  for (const url of [`/api/gadgets/${gadgetId}?populate=*`, `/api/makers/${m.body.data.documentId}?populate=*`, '/api/setting', '/api/homepage']) {
    baseline[url] = (await request(t.app).get(url)).body;
  }
});

afterAll(async () => {
  try {
    // Data is neither lost nor corrupted, and nothing leaked into Object.prototype.
    for (const [url, body] of Object.entries(baseline)) expect((await request(t.app).get(url)).body).toEqual(body);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  } finally {
    // Closed even when an assertion above fails (the test engine is closed after the file by its helper).
    server?.close();
  }
});

function expectSafe(res: request.Response): void {
  expect(res.status).toBeLessThan(500);
  if (res.status !== 204) expect(res.headers['content-type']).toMatch(/^application\/json/);
  if (res.status >= 400) expect(res.body).toEqual({ data: null, error: expect.objectContaining({ status: res.status }) });
  expectNoStack(res);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('polluted');
}

function nest(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? { a: v } : [v];
  return v;
}

const RAW_BODIES: Array<[string, string]> = [
  ['__proto__ in data', '{"data":{"name":"pp","__proto__":{"polluted":1}}}'],
  ['__proto__ at the top', '{"__proto__":{"polluted":1},"data":{"name":"pp"}}'],
  ['__proto__ in a json attribute', '{"data":{"name":"pp","meta":{"__proto__":{"polluted":1}}}}'],
  ['constructor.prototype in data', '{"data":{"name":"pp","constructor":{"prototype":{"polluted":1}}}}'],
  ['prototype key in data', '{"data":{"name":"pp","prototype":{"polluted":1}}}'],
  ['operator instead of a string', '{"data":{"name":{"$gt":""}}}'],
  ['operator instead of a number', '{"data":{"name":"op","count":{"$ne":null}}}'],
  ['operator instead of an enum', '{"data":{"name":"op","size":{"$in":["s"]}}}'],
  ['$where at the data level', '{"data":{"$where":"sleep(1000)","name":"op"}}'],
  ['dotted key', '{"data":{"name.x":"op"}}'],
  ['$set at the data level', '{"data":{"$set":{"name":"hijack"}}}'],
  ['10,000 nested arrays in a json attribute', `{"data":{"name":"deep","meta":${'['.repeat(10000)}${']'.repeat(10000)}}}`],
  ['10,000 nested objects as data', `{"data":${'{"a":'.repeat(10000)}1${'}'.repeat(10000)}}`],
  ['a huge array of strings as a string field', JSON.stringify({ data: { name: Array.from({ length: 50000 }, () => 'x') } })],
  ['a huge enum list', JSON.stringify({ data: { name: 'ok', size: Array.from({ length: 50000 }, () => 's') } })],
  ['unicode, NUL and a lone surrogate', '{"data":{"name":"\\u0000\\ud800\\u202e🦄"}}'],
  ['numbers beyond double', '{"data":{"name":"num","count":1e400,"big":"999999999999999999999999999999"}}'],
];

const WRITES = (): Array<[string, string]> => [
  ['POST', '/api/gadgets'],
  ['PUT', `/api/gadgets/${victimId}`],
  ['PUT', '/api/gadgets/unknown-doc'],
  ['PUT', '/api/homepage?status=draft'],
];

describe('hostile bodies', () => {
  it.each(RAW_BODIES)('%s on every write route', async (_label, raw) => {
    for (const [method, url] of WRITES()) {
      const res = await request(t.app)[method === 'POST' ? 'post' : 'put'](url).set('content-type', 'application/json').send(raw);
      expectSafe(res);
    }
  });

  it('a body with __proto__ or constructor keys is refused as Invalid key', async () => {
    const pp = await request(t.app).post('/api/gadgets').set('content-type', 'application/json').send(RAW_BODIES[0]![1]);
    expect(pp.status).toBe(400);
    expect(pp.body.error.message).toBe('Invalid key __proto__');
    const ctor = await request(t.app).post('/api/gadgets').set('content-type', 'application/json').send(RAW_BODIES[3]![1]);
    expect(ctor.status).toBe(400);
    expect(ctor.body.error.message).toBe('Invalid key constructor');
  });

  it('an operator object where a scalar belongs is a type error, never a query', async () => {
    const res = await request(t.app).put(`/api/gadgets/${gadgetId}`).send({ data: { name: { $gt: '' } } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.errors[0].path).toEqual(['name']);
  });

  it('a json attribute stores $-keys literally and returns them as sent', async () => {
    const meta = { $where: 'sleep(1)', $gt: '', 'a.b': 1, nested: { $ne: null } };
    const res = await request(t.app).post('/api/gadgets').send({ data: { name: 'literal', meta } });
    expect(res.status).toBe(201);
    const read = await request(t.app).get(`/api/gadgets/${res.body.data.documentId}`);
    expect(read.body.data.meta).toEqual(meta);
  });

  it('urlencoded bodies with prototype keys', async () => {
    for (const raw of ['data[__proto__][polluted]=1&data[name]=pp', 'data[constructor][prototype][polluted]=1&data[name]=pp', '__proto__[polluted]=1']) {
      expectSafe(await request(t.app).post('/api/gadgets').type('form').send(raw));
    }
  });

  it('unicode is stored and returned unchanged and can be filtered on', async () => {
    const name = 'Ünïcödé 🦄 עברית';
    const res = await request(t.app).post('/api/gadgets?locale=fr').send({ data: { name } });
    expect(res.status).toBe(201);
    const found = await request(t.app).get(`/api/gadgets?locale=fr&filters[name][$eq]=${encodeURIComponent(name)}`);
    expect(found.body.data.map((d: { name: string }) => d.name)).toEqual([name]);
  });

  it('repeatable components and relations with huge arrays are refused quickly', async () => {
    const parts = Array.from({ length: 20000 }, () => ({ label: 'x' }));
    expectSafe(await request(t.app).post('/api/makers').send({ data: { title: 'huge', parts } }));
    const rivals = Array.from({ length: 20000 }, (_v, i) => `doc-${i}`);
    expectSafe(await request(t.app).post('/api/makers').send({ data: { title: 'huge2', rivals } }));
    expect((await request(t.app).get('/api/makers?filters[title][$startsWith]=huge')).body.data).toEqual([]);
  });
});

const HOSTILE_QUERIES: string[] = [
  '__proto__[polluted]=1',
  'filters[__proto__][polluted]=1',
  'filters[constructor][prototype][polluted]=1',
  'populate[__proto__][polluted]=1',
  'sort[__proto__]=polluted',
  'fields[__proto__]=polluted',
  'pagination[__proto__][polluted]=1',
  'filters[name][$where]=1',
  'filters[$where]=sleep(1000)',
  'filters[name][$regex]=.*',
  'filters[name][$expr]=1',
  'filters[name][$function]=1',
  'filters[meta][$where]=1',
  'filters[$or][0][name][$where]=1',
  'filters[name][$eq][$gt]=',
  'filters[name][$contains]=(a%2B)%2B%24',
  'filters[name][$containsi]=.*',
  'filters[name][$startsWith]=%5E%5B',
  'filters[name][$endsWithi]=%5C',
  'filters[name][$eqi]=B.se',
  `filters${'[a]'.repeat(30)}=1`,
  `populate${'[populate][a]'.repeat(15)}=1`,
  `filters[id][$in]=${Array.from({ length: 5000 }, (_v, i) => i).join('&filters[id][$in]=')}`,
  Array.from({ length: 10000 }, (_v, i) => `p${i}=1`).join('&'),
  Array.from({ length: 10000 }, (_v, i) => `filters[name][$in][${i}]=x`).join('&'),
  'filters[name]=%E0%A4%A',
  'filters[name][$eq]=%00',
  'locale=%00',
  'locale[$ne]=x',
  'status[$ne]=draft',
  'pagination[pageSize]=1e308',
  'pagination[page]=99999999999999999999',
  'sort=name:desc;drop',
  'populate=*&populate[0]=nope',
];

describe('hostile query strings', () => {
  const READS = (): string[] => ['/api/gadgets', `/api/gadgets/${gadgetId}`, '/api/makers', '/api/setting', '/api/homepage'];

  it.each(HOSTILE_QUERIES.map((q) => [q.length > 80 ? `${q.slice(0, 77)}...` : q, q]))('%s on every route', async (_label, q) => {
    for (const url of READS()) expectSafe(await request(server).get(`${url}?${q}`));
    expectSafe(await request(server).post(`/api/gadgets?${q}`).send({ data: { name: 'qq' } }));
    expectSafe(await request(server).put(`/api/gadgets/${victimId}?${q}`).send({ data: { text: 'q' } }));
    expectSafe(await request(server).put(`/api/homepage?status=draft&${q}`).send({ data: { headline: 'Home draft' } }));
    expectSafe(await request(server).delete(`/api/gadgets/unknown-doc?${q}`));
  });

  it('refuses MongoDB operators from the query string as Invalid key', async () => {
    for (const op of ['$where', '$regex', '$expr', '$function']) {
      const res = await request(server).get(`/api/gadgets?filters[name][${op}]=1`);
      expect({ op, status: res.status, message: res.body.error?.message }).toEqual({ op, status: 400, message: `Invalid key ${op} at name` });
    }
  });

  it('matches regular-expression metacharacters literally', async () => {
    await request(server).post('/api/makers').send({ data: { title: 'a.c (x+)+ [y] ^$ \\ *?', parts: [{ label: 'a' }, { label: 'b' }] } });
    const q = (op: string, v: string) => request(server).get(`/api/makers?filters[title][${op}]=${encodeURIComponent(v)}`);
    const titles = (res: request.Response) => res.body.data.map((d: { title: string }) => d.title);
    expect(titles(await q('$contains', '.*'))).toEqual([]);
    expect(titles(await q('$contains', '(x+)+'))).toEqual(['a.c (x+)+ [y] ^$ \\ *?']);
    expect(titles(await q('$startsWith', 'a.c'))).toEqual(['a.c (x+)+ [y] ^$ \\ *?']);
    expect(titles(await q('$startsWith', 'a?c'))).toEqual([]);
    expect(titles(await q('$endsWith', '\\ *?'))).toEqual(['a.c (x+)+ [y] ^$ \\ *?']);
    expect(titles(await q('$eqi', 'A.C (X+)+ [Y] ^$ \\ *?'))).toEqual(['a.c (x+)+ [y] ^$ \\ *?']);
    expect(titles(await q('$eqi', 'abc (x+)+ [y] ^$ \\ *?'))).toEqual([]);
    expect(titles(await q('$containsi', '[Y]'))).toEqual(['a.c (x+)+ [y] ^$ \\ *?']);
  });

  it('a query nested 30 levels deep is a 400, not a crash', async () => {
    const res = await request(server).get(`/api/gadgets?filters${'[name]'.repeat(30)}=1`);
    expect(res.status).toBe(400);
  });

  it('10,000 unknown query parameters are ignored, as Strapi ignores one (error.query-unknown-param)', async () => {
    // qs reads the first 1000 parameters only (as Strapi's parser does): the filter comes first.
    const res = await request(server).get(`/api/gadgets?filters[name]=Base&${Array.from({ length: 10000 }, (_v, i) => `p${i}=1`).join('&')}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: { documentId: string }) => d.documentId)).toEqual([gadgetId]);
  });
});
