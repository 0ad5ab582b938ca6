import { vercelStegaDecode, VERCEL_STEGA_REGEX } from '@vercel/stega';
import request from 'supertest';
import { createContentRouter } from '../../../lib';
import { createTestApp, type TestApp } from '../../helpers/http';
import { httpContentTypes } from '../../fixtures/http-model';

/**
 * `strapi-encode-source-maps: true` (docs/preview.md): Strapi's core controllers encode the answer's string fields
 * when the header is exactly `true`, on any Content API read or write, draft or published; nothing else changes.
 */
const HEADER = 'strapi-encode-source-maps';
const stega = new RegExp(VERCEL_STEGA_REGEX.source, 'u');

type Payload = { strapiSource: string; href?: string };
const decode = (value: unknown): { source: Record<string, string>; href?: string } | null => {
  const payload = typeof value === 'string' ? vercelStegaDecode<Payload>(value) : undefined;
  return payload ? { source: Object.fromEntries(new URLSearchParams(payload.strapiSource)), href: payload.href } : null;
};

let t: TestApp;
let docId: string;

beforeAll(async () => {
  t = await createTestApp();
  const created = await request(t.app).post('/api/gadgets?status=draft&locale=fr').send({ data: { name: 'Widget', size: 'm', count: 3, slug: 'widget', content: [{ type: 'paragraph', children: [{ type: 'text', text: 'Hi' }] }] } });
  expect(created.status).toBe(201);
  docId = created.body.data.documentId;
  await request(t.app).post('/api/gadgets?locale=en').send({ data: { name: 'Other' } }).expect(201);
  await request(t.app).post('/api/makers').send({ data: { title: 'Acme', part: { label: 'Main', qty: 1 }, parts: [{ label: 'A' }, { label: 'B' }] } }).expect(201);
});

describe('strapi-encode-source-maps', () => {
  it('without the header: the same bytes as a router that ignores it, in a list and a document', async () => {
    const plain = await createTestApp({ preview: false, engine: t.engine }); // the same rows
    for (const url of ['/api/gadgets?status=draft&locale=*', `/api/gadgets/${docId}?status=draft&locale=fr&populate=*`, '/api/makers?populate=*']) {
      const ours = await request(t.app).get(url);
      const theirs = await request(plain.app).get(url);
      expect(ours.status).toBe(200);
      expect(ours.text).toBe(theirs.text);
      expect(ours.text).not.toMatch(stega);
      expect(ours.headers.vary).toMatch(/strapi-encode-source-maps/);
    }
  });

  it('a draft read: the string fields carry their source and the edit page of the example admin', async () => {
    const res = await request(t.app).get(`/api/gadgets/${docId}?status=draft&locale=fr`).set(HEADER, 'true');
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(decode(data.name)).toEqual({
      source: { documentId: docId, type: 'string', path: 'name', model: 'api::gadget.gadget', kind: 'collectionType', locale: 'fr' },
      href: `http://localhost:5173/#/gadgets/${docId}`,
    });
    expect(decode(data.size)?.source).toMatchObject({ type: 'enumeration', path: 'size' });
    expect(decode(data.content[0].children[0].text)?.source).toMatchObject({ type: 'blocks', path: 'content.0.children.0.text', fieldPath: 'content' });
    expect(decode(data.createdAt)?.source).toMatchObject({ type: 'datetime' });
    expect({ slug: data.slug, count: data.count, locale: data.locale, documentId: data.documentId, publishedAt: data.publishedAt }).toEqual({ slug: 'widget', count: 3, locale: 'fr', documentId: docId, publishedAt: null });
  });

  it('a published read with the header is encoded too (Strapi reads the header, not the status)', async () => {
    const res = await request(t.app).get('/api/gadgets?locale=en').set(HEADER, 'true');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(decode(res.body.data[0].name)?.source).toMatchObject({ path: 'name', locale: 'en', documentId: res.body.data[0].documentId });
  });

  it.each(['false', 'TRUE', '1', 'true, true'])('the header %j is not a request for source maps', async (value) => {
    const res = await request(t.app).get(`/api/gadgets/${docId}?status=draft&locale=fr`).set(HEADER, value);
    expect(res.text).not.toMatch(stega);
  });

  it('components, and the answers of writes', async () => {
    const list = await request(t.app).get('/api/makers?populate=*').set(HEADER, 'true');
    const maker = list.body.data[0];
    expect(decode(maker.part.label)?.source).toEqual({ documentId: maker.documentId, type: 'string', path: 'part.label', model: 'parts.part' });
    expect(decode(maker.parts[1].label)?.source).toMatchObject({ path: 'parts.1.label' });
    expect(decode(maker.part.label)?.href).toBe(`http://localhost:5173/#/makers/${maker.documentId}`);
    const updated = await request(t.app).put(`/api/makers/${maker.documentId}`).set(HEADER, 'true').send({ data: { title: 'Acme 2' } });
    expect(updated.status).toBe(200);
    expect(decode(updated.body.data.title)?.source).toMatchObject({ path: 'title', model: 'api::maker.maker' });
  });

  it('relations, with the path from the entry and its document', async () => {
    const a = await request(t.app).post('/api/makers').send({ data: { title: 'Partner', parts: [{ label: 'A' }, { label: 'B' }] } });
    const b = await request(t.app).post('/api/makers').send({ data: { title: 'Owner', partner: a.body.data.documentId, rivals: [a.body.data.documentId], parts: [{ label: 'A' }, { label: 'B' }] } });
    const res = await request(t.app).get(`/api/makers/${b.body.data.documentId}?populate[partner]=true&populate[rivals]=true`).set(HEADER, 'true');
    expect(decode(res.body.data.partner.title)?.source).toMatchObject({ documentId: b.body.data.documentId, path: 'partner.title' });
    expect(decode(res.body.data.rivals[0].title)?.source).toMatchObject({ path: 'rivals.0.title' });
  });

  it('not in the v4 shape (Strapi finds no attribute there), and never with preview: false', async () => {
    const v4 = await request(t.app).get(`/api/gadgets/${docId}?status=draft&locale=fr`).set(HEADER, 'true').set('strapi-response-format', 'v4');
    expect(v4.body.data.attributes.name).toBe('Widget');
    const off = await createTestApp({ preview: false });
    await request(off.app).post('/api/makers').send({ data: { title: 'Acme', parts: [{ label: 'A' }, { label: 'B' }] } }).expect(201);
    const res = await request(off.app).get('/api/makers').set(HEADER, 'true');
    expect(res.body.data[0].title).toBe('Acme');
    expect(res.headers.vary).not.toMatch(/strapi-encode-source-maps/);
  });

  it("preview.editUrl: a template of the editor's page, or false for Strapi's payload alone", async () => {
    const custom = await createTestApp({ preview: { editUrl: 'https://cms.example.com/admin/{model}/{documentId}?locale={locale}' } });
    await request(custom.app).post('/api/gadgets?locale=fr').send({ data: { name: 'Widget' } }).expect(201);
    const res = await request(custom.app).get('/api/gadgets?locale=fr').set(HEADER, 'true');
    const id = res.body.data[0].documentId;
    expect(decode(res.body.data[0].name)?.href).toBe(`https://cms.example.com/admin/api%3A%3Agadget.gadget/${id}?locale=fr`);
    const bare = await createTestApp({ preview: { editUrl: false } });
    await request(bare.app).post('/api/gadgets?locale=fr').send({ data: { name: 'Widget' } }).expect(201);
    const payload = vercelStegaDecode<Payload>((await request(bare.app).get('/api/gadgets?locale=fr').set(HEADER, 'true')).body.data[0].name);
    expect(Object.keys(payload!)).toEqual(['strapiSource']);
  });

  it.each([
    [{ editUrl: 'https://cms.example.com/{pluralName}/{id}' }, /options\.preview\.editUrl: unknown placeholder \{id\}/],
    [{ editUrl: 'javascript:alert(1)' }, /options\.preview\.editUrl/],
    [{ editUrl: 'https://x', link: true }, /options\.preview\.link: unknown option/],
    [true, /options\.preview/],
  ])('refuses preview %j at start-up', (preview, message) => {
    expect(() => createContentRouter({ contentTypes: httpContentTypes, preview } as never)).toThrow(message);
  });
});
