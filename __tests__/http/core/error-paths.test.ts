import request from 'supertest';
import { memoryEngine, ValidationError, type Engine } from '../../../lib';
import { createTestApp, expectNoStack, expectStrapiError, type TestApp } from '../../helpers/http';

/** Each error path answers Strapi's JSON envelope (or the recorded text/plain 405), never Express's HTML page. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ bodyLimit: '2kb' });
});

const BARE_500 = { data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } };

describe('bodies', () => {
  it('malformed JSON: 400 SyntaxError without details (error.malformed-json)', async () => {
    const res = await request(t.app).post('/api/makers').set('content-type', 'application/json').send('{"data": {"title": "broken"');
    expectStrapiError(res, 400, 'SyntaxError');
    expect(res.body.error).not.toHaveProperty('details');
  });

  it.each([
    ['application/json', '{"data": 1'],
    ['application/vnd.api+json', '{"data"'],
    ['application/json', '[1,'],
  ])('malformed %s body on PUT is a 400 too', async (type, raw) => {
    const created = await request(t.app).post('/api/makers').send({ data: { title: `m${raw}${type}` } });
    const res = await request(t.app).put(`/api/makers/${created.body.data.documentId}`).set('content-type', type).send(raw);
    expectStrapiError(res, 400, 'SyntaxError');
  });

  it.each([
    ['empty JSON body', 'application/json', ''],
    ['text/plain body', 'text/plain', 'title=hello'],
    ['XML body', 'application/xml', '<data><title>x</title></data>'],
  ])('%s: Missing "data" payload', async (_label, type, raw) => {
    const res = await request(t.app).post('/api/makers').set('content-type', type).send(raw);
    expectStrapiError(res, 400, 'ValidationError', 'Missing "data" payload in the request body');
  });

  it('an urlencoded body is accepted (error.form-body)', async () => {
    const res = await request(t.app).post('/api/makers').type('form').send('data[title]=FormMaker');
    expect(res.status).toBe(201);
    expect(res.body.data.title).toBe('FormMaker');
  });

  it.each([
    ['JSON', 'application/json', JSON.stringify({ data: { title: 'x'.repeat(4000) } })],
    ['urlencoded', 'application/x-www-form-urlencoded', `data[title]=${'x'.repeat(4000)}`],
  ])('a %s body over bodyLimit: 413 PayloadTooLargeError in the envelope, nothing written', async (_label, type, raw) => {
    const res = await request(t.app).post('/api/makers').set('content-type', type).send(raw);
    expectStrapiError(res, 413, 'PayloadTooLargeError');
    const list = await request(t.app).get('/api/makers?filters[title][$startsWith]=xxxx');
    expect(list.body.data).toEqual([]);
  });

  it.each([
    ['an unsupported charset', { 'content-type': 'application/json; charset=klingon' }, '{"data":{}}'],
    ['an unknown content-encoding', { 'content-type': 'application/json', 'content-encoding': 'zip-zap' }, '{"data":{}}'],
    ['a corrupt gzip body', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'not gzip at all'],
  ])('%s is a 4xx JSON envelope', async (_label, headers, raw) => {
    const res = await request(t.app).post('/api/makers').set(headers).send(raw);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expectStrapiError(res, res.status, expect.any(String) as unknown as string);
  });
});

describe('routes', () => {
  it.each([
    ['GET', '/api/nothing-here'],
    ['GET', '/api'],
    ['GET', '/api/'],
    ['POST', '/api/nothing-here'],
    ['GET', '/api/gadgets/a/b'],
    ['DELETE', '/api/gadget'],
    ['GET', '/api/users/me'],
    ['GET', '/api/upload/files'],
  ])('unknown route %s %s: 404 NotFoundError JSON', async (method, url) => {
    const res = await request(t.app)[method.toLowerCase() as 'get'](url);
    expectStrapiError(res, 404, 'NotFoundError', 'Not Found');
    expect(res.body.error.details).toEqual({});
  });

  it.each([
    ['PATCH', '/api/gadgets/abc'],
    ['PATCH', '/api/gadgets'],
    ['PUT', '/api/gadgets'],
    ['DELETE', '/api/makers'],
    ['POST', '/api/makers/abc'],
    ['POST', '/api/setting'],
    ['PATCH', '/api/homepage'],
  ])('wrong method %s %s: 405 text/plain "Method Not Allowed"', async (method, url) => {
    const res = await request(t.app)[method.toLowerCase() as 'get'](url).send({ data: {} });
    expect(res.status).toBe(405);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toBe('Method Not Allowed');
  });

  it.each([
    ['/api/makers', 'HEAD, GET, POST'],
    ['/api/makers/abc', 'HEAD, GET, PUT, DELETE'],
    ['/api/setting', 'HEAD, GET, PUT, DELETE'],
  ])('%s: 405 carries an Allow header, OPTIONS answers 200 empty with it (koa-router allowedMethods)', async (url, allow) => {
    const wrong = await request(t.app).patch(url);
    expect([wrong.status, wrong.headers.allow]).toEqual([405, allow]);
    const options = await request(t.app).options(url);
    expect([options.status, options.headers.allow, options.text]).toEqual([200, allow, '']);
  });

  it.each(['%E0%A4%A', '%', '%zz'])('a malformed percent-encoding in the documentId (%s): 400 BadRequestError JSON', async (id) => {
    for (const method of ['get', 'put', 'delete'] as const) {
      const res = await request(t.app)[method](`/api/makers/${id}`).send({ data: { title: 'x' } });
      expectStrapiError(res, 400, 'BadRequestError', `Failed to decode param '${id}'`);
      expect(res.body.error.details).toEqual({});
    }
  });

  it('a trailing slash reaches the route (misc.trailing-slash)', async () => {
    const res = await request(t.app).get('/api/makers/?pagination[pageSize]=1');
    expect(res.status).toBe(200);
    expect(res.body.meta.pagination.pageSize).toBe(1);
  });
});

describe('unexpected errors: a bare 500 with no internals', () => {
  const boom = () => {
    throw new Error('secret internals at /srv/app/db.js:12:3');
  };

  it.each(['beforeCreate', 'afterCreate'])('a lifecycle %s hook that throws a plain Error', async (hook) => {
    const app = (await createTestApp({ lifecycles: { 'api::maker.maker': { [hook]: boom } } })).app;
    const res = await request(app).post('/api/makers').send({ data: { title: 'Boom' } });
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(BARE_500);
    expect(res.text).not.toContain('secret');
    expectNoStack(res);
    expect((await request(app).get('/api/makers')).body.data).toEqual([]);
  });

  it('beforeUpdate and beforeDelete hooks that throw leave the document as it was', async () => {
    const app = (await createTestApp({ lifecycles: { 'api::gadget.gadget': { beforeUpdate: boom, beforeDelete: boom } } })).app;
    const created = await request(app).post('/api/gadgets').send({ data: { name: 'Keep' } });
    const url = `/api/gadgets/${created.body.data.documentId}`;
    expect((await request(app).put(url).send({ data: { name: 'Lost' } })).body).toEqual(BARE_500);
    expect((await request(app).delete(url)).body).toEqual(BARE_500);
    expect((await request(app).get(url)).body.data).toEqual(created.body.data);
  });

  it('an ApplicationError thrown by a hook keeps its status, name and message', async () => {
    const app = (await createTestApp({
      lifecycles: { 'api::maker.maker': { beforeCreate: () => { throw new ValidationError('Title is reserved', { reserved: true }); } } },
    })).app;
    const res = await request(app).post('/api/makers').send({ data: { title: 'Reserved' } });
    expectStrapiError(res, 400, 'ValidationError', 'Title is reserved');
    expect(res.body.error.details).toEqual({ reserved: true });
  });

  it.each([
    ['a string', () => { throw 'plain string'; }],
    ['null', () => { throw null; }],
    ['an object with a status', () => { throw Object.assign(new Error('db'), { status: 418, expose: true }); }],
  ])('a hook throwing %s', async (_label, hook) => {
    const app = (await createTestApp({ lifecycles: { 'api::maker.maker': { beforeCreate: hook } } })).app;
    const res = await request(app).post('/api/makers').send({ data: { title: 'x' } });
    expect(res.body).toEqual(BARE_500);
    expect(res.status).toBe(500);
  });

  it('an engine that fails on reads', async () => {
    // The memory engine on purpose: a prototype-wrapped engine whose aggregate fails (no server involved).
    const inner = memoryEngine({ ephemeral: true });
    const failing: Engine = Object.create(inner, {
      aggregate: { value: () => Promise.reject(new Error('connection reset by peer 10.0.0.3:27017')) },
    }) as Engine;
    const app = (await createTestApp({ engine: failing })).app;
    for (const url of ['/api/makers', '/api/makers/abc', '/api/setting']) {
      const res = await request(app).get(url);
      expect({ url, status: res.status, body: res.body }).toEqual({ url, status: 500, body: BARE_500 });
      expect(res.text).not.toContain('10.0.0.3');
    }
  });
});
