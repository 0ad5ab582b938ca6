import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { importStrapiExport } from '../../lib/transfer/import-strapi-export';
import { createExpectations, normalizeRest, restPath } from './fixture-expectations';
import { blogTarget, FIXTURE, readExport, TOKEN, type BlogTarget, type ExportLines } from './transfer-helpers';

let target: BlogTarget;
let fixture: ExportLines;

beforeAll(async () => {
  target = await blogTarget();
  fixture = await readExport(FIXTURE);
  const result = await importStrapiExport(target.router, FIXTURE, { uploads: { directory: target.uploads } });
  expect(result.rows).toEqual({
    'plugin::upload.file': 8,
    'api::about.about': 2,
    'api::article.article': 149,
    'api::author.author': 4,
    'api::category.category': 10,
    'api::global.global': 1,
  });
  expect(result.assets).toBe(11);
});

describe('importing Strapi 5.54.0\'s export of the blog (examples/blog/model/strapi-export.tar)', () => {
  it('reads every document version over REST as the export\'s own entities and links say', async () => {
    const { registry } = target.router;
    const { expected } = createExpectations(fixture, registry);
    const model = fixture.entities.filter((e) => e.type.startsWith('api::'));
    expect(model).toHaveLength(166);
    for (const entity of model) {
      const ct = registry.contentType(entity.type);
      const res = await request(target.app).get(restPath(ct, entity.data)).set('Authorization', `Bearer ${TOKEN}`);
      expect({ path: restPath(ct, entity.data), status: res.status }).toEqual({ path: restPath(ct, entity.data), status: 200 });
      const got = normalizeRest(registry, ct.attributes, ct.attributeNames, res.body.data, true);
      expect({ entity: `${entity.type} ${entity.id}`, doc: got }).toEqual({ entity: `${entity.type} ${entity.id}`, doc: expected(ct, entity) });
    }
  });

  it('keeps private attributes, which REST never shows', async () => {
    const rows = await target.engine.find('authors', {}, { sort: { id: 1 } });
    const fromFixture = fixture.entities.filter((e) => e.type === 'api::author.author').map((e) => e.data.internalNote);
    expect(rows.map((r) => r.internalNote)).toEqual(fromFixture);
  });

  it('keeps the row order (ids in the export\'s order): lists read in the same order as in Strapi', async () => {
    const res = await request(target.app).get('/api/categories?pagination[pageSize]=100').set('Authorization', `Bearer ${TOKEN}`);
    const fromFixture = fixture.entities.filter((e) => e.type === 'api::category.category').sort((a, b) => a.id - b.id).map((e) => e.data.documentId);
    expect(res.body.data.map((d: { documentId: string }) => d.documentId)).toEqual(fromFixture);
  });

  it('lists each author\'s and category\'s articles in Strapi\'s order (its inverse order column, `right.pos`)', async () => {
    const entity = new Map(fixture.entities.map((e) => [`${e.type}:${e.id}`, e]));
    let compared = 0;
    for (const e of fixture.entities.filter((x) => x.type === 'api::author.author' || x.type === 'api::category.category')) {
      const links = fixture.links
        .map((l, seq) => ({ l, seq }))
        .filter(({ l }) => l.right.type === e.type && l.right.ref === e.id && l.right.field === 'articles')
        .sort((a, b) => Number(a.l.right.pos) - Number(b.l.right.pos) || a.seq - b.seq);
      const status = e.data.publishedAt === null ? 'draft' : 'published';
      // The rows of the read's status (a category, without draft & publish, is linked from both versions of an article).
      const expected = links
        .map(({ l }) => entity.get(`${String(l.left.type)}:${String(l.left.ref)}`)!)
        .filter((a) => (a.data.publishedAt === null ? 'draft' : 'published') === status)
        .map((a) => `${String(a.data.documentId)} ${String(a.data.locale)}`);
      const plural = e.type === 'api::author.author' ? 'authors' : 'categories';
      const res = await request(target.app)
        .get(`/api/${plural}/${String(e.data.documentId)}?status=${status}&populate[articles][fields][0]=locale`)
        .set('Authorization', `Bearer ${TOKEN}`);
      const got = (res.body.data.articles as { documentId: string; locale: string }[]).map((a) => `${a.documentId} ${a.locale}`);
      expect({ doc: `${plural} ${String(e.data.documentId)} ${status}`, articles: got }).toEqual({ doc: `${plural} ${String(e.data.documentId)} ${status}`, articles: expected });
      if (expected.length > 1) compared++;
    }
    expect(compared).toBeGreaterThan(5);
  });

  it('stores every file and format with the bytes of the export, at the url the row says', async () => {
    for (const [name, bytes] of fixture.assets) expect(fs.readFileSync(path.join(target.uploads, name)).equals(bytes)).toBe(true);
    const res = await request(target.app).get('/api/upload/files').set('Authorization', `Bearer ${TOKEN}`);
    const fromFixture = fixture.entities.filter((e) => e.type === 'plugin::upload.file').map((e) => ({ documentId: e.data.documentId, hash: e.data.hash, url: e.data.url, formats: e.data.formats, size: e.data.size }));
    const got = (res.body as Record<string, unknown>[]).map((f) => ({ documentId: f.documentId, hash: f.hash, url: f.url, formats: f.formats, size: f.size }));
    expect(got).toEqual(fromFixture);
  });

  it('refuses a second import into the store it filled, naming what is there', async () => {
    await expect(importStrapiExport(target.router, FIXTURE, { uploads: { directory: target.uploads } })).rejects.toThrow(/the store is not empty \(api::about.about: 2 row\(s\) in abouts; api::article.article: 149 row\(s\) in articles; .*plugin::upload.file: 8 row\(s\) in files; _strapi_transfer/);
  });
});
