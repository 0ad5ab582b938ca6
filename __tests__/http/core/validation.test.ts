import request from 'supertest';
import { createTestApp, expectStrapiError, fieldError, type TestApp } from '../../helpers/http';
import { UNPARSEABLE_TEMPORALS } from '../../helpers/temporal-errors';

/** Every attribute type's validation over HTTP, with Strapi's messages (see BEHAVIOURS.md "Validation errors"). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const post = (url: string, body: unknown) => request(t.app).post(url).send(body as object);
const gadget = (data: Record<string, unknown>) => post('/api/gadgets', { data: { name: 'ok', ...data } });

/** One field error: status 400, the message at top level and in details.errors. */
async function expectFieldError(resP: Promise<request.Response> | request.Test, path: string[], message: string, value: unknown) {
  const res = await resP;
  expectStrapiError(res, 400, 'ValidationError', message);
  expect(res.body.error.details).toEqual({ errors: [fieldError(path, message, value)] });
}

describe('scalar attributes', () => {
  it.each<[string, Record<string, unknown>, string[], string, unknown]>([
    ['required missing', { name: undefined }, ['name'], 'name must be a `string` type, but the final value was: `null`.', null],
    ['required null', { name: null }, ['name'], 'name must be a `string` type, but the final value was: `null`.', null],
    ['string type', { name: 5 }, ['name'], 'name must be a `string` type, but the final value was: `5`.', 5],
    ['minLength', { name: 'x' }, ['name'], 'name must be at least 2 characters', 'x'],
    ['maxLength', { name: 'x'.repeat(21) }, ['name'], 'name must be at most 20 characters', 'x'.repeat(21)],
    ['text maxLength', { text: 'y'.repeat(51) }, ['text'], 'text must be at most 50 characters', 'y'.repeat(51)],
    ['regex', { code: 'abc' }, ['code'], 'code must match the following: "/^[A-Z]{3}$/"', 'abc'],
    ['email', { email: 'a@' }, ['email'], 'email must be a valid email', 'a@'],
    ['uid format', { slug: 'a b' }, ['slug'], 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"', 'a b'],
    ['integer min', { count: 0 }, ['count'], 'count must be greater than or equal to 1', 0],
    ['integer max', { count: 11 }, ['count'], 'count must be less than or equal to 10', 11],
    ['integer', { count: 1.5 }, ['count'], 'count must be an integer', 1.5],
    ['float min', { ratio: 0.1 }, ['ratio'], 'ratio must be greater than or equal to 0.5', 0.1],
    ['decimal max', { price: 100 }, ['price'], 'price must be less than or equal to 99.99', 100],
    ['number from text', { count: 'x' }, ['count'], 'count must be a `number` type, but the final value was: `NaN` (cast from the value `"x"`).', null],
    ['boolean', { flag: 'maybe' }, ['flag'], 'flag must be a `boolean` type, but the final value was: `"maybe"`.', 'maybe'],
    ['biginteger', { big: '1.5' }, ['big'], 'big must match the configured type. The validated value was: `"1.5"`.', '1.5'],
    ['enumeration', { size: 'xl' }, ['size'], 'size must be one of the following values: s, m, l, ', 'xl'],
    ['blocks must be an array', { content: 'text' }, ['content'], 'content must be a `array` type, but the final value was: `"text"`.', 'text'],
  ])('%s', async (_label, data, path, message, value) => {
    await expectFieldError(gadget(data), path, message, value);
  });

  it.each(UNPARSEABLE_TEMPORALS)('unparseable %s: 400 with empty details', async (_label, data, message) => {
    const res = await gadget(data);
    expectStrapiError(res, 400, 'ValidationError', message);
    expect(res.body.error.details).toEqual({});
  });

  it('stores and returns every scalar type in its canonical form, with defaults on create', async () => {
    const res = await gadget({
      code: 'ABC', text: 't', rich: '# r', content: [{ type: 'paragraph', children: [{ type: 'text', text: 'hi' }] }],
      email: 'a@b.co', slug: 'a-b_c.~', big: '00123', ratio: ' 1.5 ', price: '9.5', day: '2024-02-29T10:00:00Z', at: '10:30',
      when: '2024-01-01T10:00:00+02:00', stamp: 1700000000000, meta: { a: [1, { b: null }] }, size: 'l',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual(expect.objectContaining({
      name: 'ok', code: 'ABC', text: 't', rich: '# r', content: [{ type: 'paragraph', children: [{ type: 'text', text: 'hi' }] }],
      email: 'a@b.co', slug: 'a-b_c.~', count: 5, big: '123', ratio: 1.5, price: 9.5, flag: false, day: '2024-02-29',
      at: '10:30:00.000', when: '2024-01-01T08:00:00.000Z', stamp: '2023-11-14T22:13:20.000Z', meta: { a: [1, { b: null }] }, size: 'l',
    }));
    const read = await request(t.app).get(`/api/gadgets/${res.body.data.documentId}`);
    expect(read.body.data).toEqual(res.body.data);
  });

  it('reports every field error, in attribute order, as "N errors occurred"', async () => {
    const res = await post('/api/gadgets', { data: { flag: 'maybe', count: 'x', name: 5 } });
    expectStrapiError(res, 400, 'ValidationError', '3 errors occurred');
    expect(res.body.error.details.errors).toEqual([
      fieldError(['name'], 'name must be a `string` type, but the final value was: `5`.', 5),
      fieldError(['count'], 'count must be a `number` type, but the final value was: `NaN` (cast from the value `"x"`).', null),
      fieldError(['flag'], 'flag must be a `boolean` type, but the final value was: `"maybe"`.', 'maybe'),
    ]);
  });

  it('a draft skips required and format checks but not maxLength', async () => {
    const draft = await post('/api/gadgets?status=draft', { data: { email: 'nope', count: 0 } });
    expect(draft.status).toBe(201);
    expect(draft.body.data).toEqual(expect.objectContaining({ name: null, email: 'nope', count: 0 }));
    await expectFieldError(post('/api/gadgets?status=draft', { data: { name: 'x'.repeat(21) } }), ['name'], 'name must be at most 20 characters', 'x'.repeat(21));
  });

  it('update does not require what is not sent, but refuses null for a required attribute', async () => {
    const created = await gadget({});
    const id = created.body.data.documentId as string;
    expect((await request(t.app).put(`/api/gadgets/${id}`).send({ data: { text: 'x' } })).status).toBe(200);
    await expectFieldError(request(t.app).put(`/api/gadgets/${id}`).send({ data: { name: null } }), ['name'], 'name must be a `string` type, but the final value was: `null`.', null);
  });
});

describe('unique', () => {
  it('is checked per locale, on create and on update, excluding the document itself', async () => {
    const app = (await createTestApp()).app;
    const first = await request(app).post('/api/gadgets').send({ data: { name: 'one', code: 'UNQ' } });
    expect(first.status).toBe(201);
    await expectFieldError(request(app).post('/api/gadgets').send({ data: { name: 'two', code: 'UNQ' } }), ['code'], 'This attribute must be unique', 'UNQ');
    const fr = await request(app).post('/api/gadgets?locale=fr').send({ data: { name: 'deux', code: 'UNQ' } });
    expect(fr.status).toBe(201);
    const id = first.body.data.documentId as string;
    expect((await request(app).put(`/api/gadgets/${id}`).send({ data: { code: 'UNQ', text: 'same' } })).status).toBe(200);
    const other = await request(app).post('/api/gadgets').send({ data: { name: 'three', code: 'OTH' } });
    await expectFieldError(request(app).put(`/api/gadgets/${other.body.data.documentId}`).send({ data: { code: 'UNQ' } }), ['code'], 'This attribute must be unique', 'UNQ');
  });

  it('is checked on a type without draft & publish or i18n', async () => {
    const app = (await createTestApp()).app;
    expect((await request(app).post('/api/makers').send({ data: { title: 'Acme' } })).status).toBe(201);
    await expectFieldError(request(app).post('/api/makers').send({ data: { title: 'Acme' } }), ['title'], 'This attribute must be unique', 'Acme');
    expect((await request(app).get('/api/makers')).body.data).toHaveLength(1);
  });
});

describe('components and dynamic zones', () => {
  const maker = (data: Record<string, unknown>) => post('/api/makers', { data: { title: `m${Math.random()}`, ...data } });

  it('stores nested and repeatable components with their own ids', async () => {
    const fresh = await createTestApp();
    const res = await request(fresh.app).post('/api/makers').send({ data: { title: 'ids', part: { label: 'a', notes: [{ body: 'n1' }] }, parts: [{ label: 'b', qty: '2' }, { label: 'c' }], zone: [{ __component: 'parts.note', body: 'z' }] } });
    expect(res.status).toBe(201);
    const read = await request(fresh.app).get(`/api/makers/${res.body.data.documentId}?populate[part][populate]=notes&populate[parts]=true&populate[zone]=true`);
    expect(read.body.data.part).toEqual({ id: expect.any(Number), label: 'a', qty: null, notes: [{ id: expect.any(Number), body: 'n1', day: null }] });
    expect(read.body.data.parts).toEqual([{ id: expect.any(Number), label: 'b', qty: 2 }, { id: expect.any(Number), label: 'c', qty: null }]);
    const ids = [read.body.data.part.id, read.body.data.part.notes[0].id, ...read.body.data.parts.map((p: { id: number }) => p.id), read.body.data.zone[0].id];
    // One id sequence per component (Strapi's one table per component): parts.part 1..3, parts.note 1..2.
    expect(ids).toEqual([1, 1, 2, 3, 2]);
    expect(read.body.data.zone).toEqual([{ id: expect.any(Number), __component: 'parts.note', body: 'z', day: null }]);
  });

  it.each<[string, Record<string, unknown>, string[], string, unknown]>([
    ['required attribute in a component', { part: { qty: 1 } }, ['part', 'label'], 'part.label must be a `string` type, but the final value was: `null`.', null],
    ['min inside a component', { part: { label: 'a', qty: -1 } }, ['part', 'qty'], 'part.qty must be greater than or equal to 0', -1],
    ['nested component maxLength', { part: { label: 'a', notes: [{ body: 'x'.repeat(31) }] } }, ['part', 'notes', '0', 'body'], 'part.notes[0].body must be at most 30 characters', 'x'.repeat(31)],
    ['nested repeatable max', { part: { label: 'a', notes: [{}, {}, {}] } }, ['part', 'notes'], 'part.notes field must have less than or equal to 2 items', [{}, {}, {}]],
    ['repeatable min', { parts: [{ label: 'a' }] }, ['parts'], 'parts field must have at least 2 items', [{ label: 'a', notes: [] }]],
    ['repeatable max', { parts: ['a', 'b', 'c', 'd'].map((label) => ({ label })) }, ['parts'], 'parts field must have less than or equal to 3 items', ['a', 'b', 'c', 'd'].map((label) => ({ label, notes: [] }))],
    ['repeatable item path', { parts: [{ label: 'a' }, { label: 'b', qty: 'x' }] }, ['parts', '1', 'qty'], 'parts[1].qty must be a `number` type, but the final value was: `NaN` (cast from the value `"x"`).', null],
    ['zone max', { zone: [1, 2, 3].map(() => ({ __component: 'parts.note' })) }, ['zone'], 'zone field must have less than or equal to 2 items', [1, 2, 3].map(() => ({ __component: 'parts.note' }))],
    ['zone item validated as its component', { zone: [{ __component: 'parts.part' }] }, ['zone', '0', 'label'], 'zone[0].label must be a `string` type, but the final value was: `null`.', null],
  ])('%s', async (_label, data, path, message, value) => {
    await expectFieldError(maker(data), path, message, value);
  });

  it('an optional repeatable with a minimum accepts an empty list', async () => {
    const res = await maker({ parts: [] });
    expect(res.status).toBe(201);
  });

  it('an unknown __component: its error and "Invalid relations" (error.dz-unknown-component)', async () => {
    const res = await post('/api/makers', { data: { title: 'dz', zone: [{ __component: 'parts.other' }] } });
    expectStrapiError(res, 400, 'ValidationError', '2 errors occurred');
    expect(res.body.error.details.errors).toEqual([
      fieldError(['zone', '0', '__component'], 'zone[0].__component must be one of the following values: parts.part, parts.note', 'parts.other'),
      fieldError([], 'Invalid relations', expect.objectContaining({ title: 'dz', zone: [{ __component: 'parts.other' }] })),
    ]);
  });

  it('a zone item without __component is a 400', async () => {
    expectStrapiError(await maker({ zone: [{ body: 'x' }] }), 400, 'ValidationError');
  });
});

describe('body shape', () => {
  it.each<[string, unknown]>([
    ['no body', undefined],
    ['no data key', { title: 'x' }],
    ['data null', { data: null }],
    ['data a string', { data: 'x' }],
    ['data a number', { data: 1 }],
    ['body an array', [{ data: {} }]],
  ])('Missing "data" payload: %s', async (_label, body) => {
    const req = request(t.app).post('/api/makers');
    const res = body === undefined ? await req : await req.send(body as object);
    expectStrapiError(res, 400, 'ValidationError', 'Missing "data" payload in the request body');
    expect(res.body.error.details).toEqual({});
  });

  it.each<[string, Record<string, unknown>]>([
    ['color', { key: 'color', path: null, source: 'body' }],
    ['id', { key: 'id', source: 'body' }],
    ['documentId', { key: 'documentId', source: 'body' }],
    ['createdAt', { key: 'createdAt', path: 'createdAt', source: 'body' }],
    ['updatedAt', { key: 'updatedAt', path: 'updatedAt', source: 'body' }],
  ])('Invalid key %s with source body (write.create.* goldens)', async (key, details) => {
    const res = await post('/api/makers', { data: { title: 'k', [key]: 'x' } });
    expectStrapiError(res, 400, 'ValidationError', `Invalid key ${key}`);
    expect(res.body.error.details).toEqual(details);
    expect((await request(t.app).get('/api/makers?filters[title]=k')).body.data).toEqual([]);
  });

  it('an unknown key inside a component is refused', async () => {
    const res = await post('/api/makers', { data: { title: 'k2', part: { label: 'a', color: 'red' } } });
    expectStrapiError(res, 400, 'ValidationError', expect.stringMatching(/^Invalid key color/) as unknown as RegExp);
    expect(res.body.error.details).toEqual(expect.objectContaining({ key: 'color', source: 'body' }));
  });

  it('PUT checks the body the same way', async () => {
    const created = await post('/api/makers', { data: { title: 'put' } });
    const url = `/api/makers/${created.body.data.documentId}`;
    expectStrapiError(await request(t.app).put(url).send({}), 400, 'ValidationError', 'Missing "data" payload in the request body');
    expectStrapiError(await request(t.app).put(url).send({ data: { nope: 1 } }), 400, 'ValidationError', 'Invalid key nope');
  });
});

describe('sorts on lists (repeatable components)', () => {
  // MongoDB refuses a sort on two arrays of one document that are not nested ("parallel arrays", the compound
  // multikey rule: https://www.mongodb.com/docs/manual/core/indexes/index-types/index-multikey/): a 400 here, on
  // every engine, never a 500 from the server. Keys in one list, or in a list nested in the other, are fine.
  const get = (query: string): request.Test => request(t.app).get(`/api/makers?${query}`);

  it.each([
    ['sort[0]=parts.label&sort[1]=part.notes.body', 'parts.label and part.notes.body'],
    ['sort[0]=part.notes.day:desc&sort[1]=parts.notes.body', 'part.notes.day and parts.notes.body'],
  ])('%s is a 400', async (query, paths) => {
    expectStrapiError(await get(query), 400, 'ValidationError', `Cannot sort on two lists at once: ${paths}`);
  });

  it.each(['sort[0]=parts.label&sort[1]=parts.notes.body', 'sort[0]=parts.label:desc&sort[1]=parts.qty', 'sort[0]=part.notes.body&sort[1]=part.label', 'sort=parts.label,parts.label:desc'])('%s is allowed', async (query) => {
    expect((await get(query)).status).toBe(200);
  });
});
