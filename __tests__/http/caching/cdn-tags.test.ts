import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { createContentRouter, importStrapiExport, memoryEngine, type ContentRouter, type ContentRouterOptions, type ContentTypeSchema } from '../../../lib';
import { loadBlogModel } from '../../../examples/blog/model';
import { FIXTURE, tempDir } from '../../transfer/transfer-helpers';

const KEY = 'cdn-tags-full-access-key-0123456789abcdef';
const auth = { authorization: `Bearer ${KEY}` };

const article: ContentTypeSchema = {
  kind: 'collectionType',
  collectionName: 'articles',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
  options: { draftAndPublish: true },
  attributes: { title: { type: 'string' } },
} as ContentTypeSchema;

/** A page features one article: the page's row stores the link (a unidirectional relation). */
const page: ContentTypeSchema = {
  kind: 'collectionType',
  collectionName: 'pages',
  info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
  options: { draftAndPublish: true },
  attributes: { title: { type: 'string' }, featured: { type: 'relation', relation: 'oneToOne', target: 'api::article.article' } },
} as ContentTypeSchema;

function routerWith(extra: Partial<ContentRouterOptions>): { router: ContentRouter; app: express.Express } {
  const router = createContentRouter({
    contentTypes: [article, page],
    engine: memoryEngine({ ephemeral: true }),
    auth: { apiTokens: [{ name: 'full', type: 'full-access', accessKey: KEY }] },
    upload: false,
    logger: false,
    ...extra,
  });
  return { router, app: express().use('/api', router) };
}

const tagsOf = (res: request.Response, header = 'xkey'): string[] => String(res.headers[header.toLowerCase()] ?? '').split(/[ ,]+/).filter(Boolean);

describe('cache.purge', () => {
  test('publishing a document purges the documents that link to it (their answers showed nothing of it)', async () => {
    const { router, app } = routerWith({ cacheTags: { header: 'xkey' } });
    await router.ready;
    const a = await router.documents('api::article.article').create({ data: { title: 'Not yet out' }, status: 'draft' });
    const p = await request(app).post('/api/pages').set(auth).send({ data: { title: 'Home', featured: a.documentId } });
    expect(p.status).toBe(201);
    const url = `/api/pages/${String(p.body.data.documentId)}?populate=featured`;
    const before = await request(app).get(url).set(auth);
    expect(before.body.data.featured).toBeNull();
    const purged: string[] = [];
    router.on('cache.purge', ({ tags }) => void purged.push(...tags));
    await router.documents('api::article.article').publish({ documentId: a.documentId });
    expect(purged).toEqual(expect.arrayContaining(tagsOf(before))); // the page's answer is purged
    expect((await request(app).get(url).set(auth)).body.data.featured.title).toBe('Not yet out');
    await router.engine.close();
  });

  test('a write emits nothing for rows of other collections, and once per transaction', async () => {
    const { router } = routerWith({ cacheTags: { header: 'xkey', prefix: 'site1:' } });
    await router.ready;
    const events: (readonly string[])[] = [];
    const off = router.on('cache.purge', ({ tags }) => void events.push(tags));
    const a = await router.documents('api::article.article').create({ data: { title: 'One' }, status: 'published' });
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual(['site1:t:api::article.article', `site1:d:${a.documentId}`]);
    off();
    await router.documents('api::article.article').update({ documentId: a.documentId, data: { title: 'Two' } });
    expect(events).toHaveLength(1); // stopped listening
    await router.engine.close();
  });

  test('saving a draft purges nothing (no shared cache keeps a draft read); publishing it does', async () => {
    const { router } = routerWith({ cacheTags: { header: 'xkey' } });
    await router.ready;
    const docs = router.documents('api::article.article');
    const a = await docs.create({ data: { title: 'Live' }, status: 'published' });
    const events: (readonly string[])[] = [];
    router.on('cache.purge', ({ tags }) => void events.push(tags));
    await docs.update({ documentId: a.documentId, data: { title: 'Work in progress' }, status: 'draft' });
    await docs.create({ data: { title: 'Only a draft' }, status: 'draft' });
    expect(events).toEqual([]);
    await docs.publish({ documentId: a.documentId });
    expect(events).toEqual([['t:api::article.article', `d:${a.documentId}`]]);
    await router.engine.close();
  });

  test('purgeUrl receives { tags } in batches, with its headers', async () => {
    const received: { body: { tags: string[] }; authorization: string | undefined }[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ body: JSON.parse(body) as { tags: string[] }, authorization: req.headers.authorization });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const purgeUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/purge`;
    const { router } = routerWith({ cacheTags: { header: 'Cache-Tag', purgeUrl, purgeHeaders: { Authorization: 'Bearer cf-token' }, purgeBatch: 2 } });
    await router.ready;
    const emitted: string[] = [];
    router.on('cache.purge', ({ tags }) => void emitted.push(...tags));
    const a = await router.documents('api::article.article').create({ data: { title: 'A' }, status: 'published' });
    await router.documents('api::page.page').create({ data: { title: 'P', featured: a.documentId }, status: 'published' });
    for (let i = 0; i < 100 && received.flatMap((r) => r.body.tags).length < emitted.length; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received.every((r) => r.body.tags.length <= 2 && r.authorization === 'Bearer cf-token')).toBe(true);
    expect(received.flatMap((r) => r.body.tags).sort()).toEqual([...emitted].sort());
    expect(emitted).toEqual(expect.arrayContaining([`d:${a.documentId}`, 't:api::page.page']));
    await new Promise((resolve) => server.close(resolve));
    await router.engine.close();
  });
});

describe('imports', () => {
  test("an import of a Strapi export purges every published document it writes and their types", async () => {
    const model = loadBlogModel();
    const router = createContentRouter({
      contentTypes: model.contentTypes,
      components: model.components,
      engine: memoryEngine({ ephemeral: true }),
      i18n: { locales: ['en', 'fr'], defaultLocale: 'en' },
      upload: { directory: tempDir('uploads') },
      logger: false,
      cacheTags: { header: 'xkey' },
    });
    await router.ready;
    const purged = new Set<string>();
    router.on('cache.purge', ({ tags }) => tags.forEach((t) => purged.add(t)));
    await importStrapiExport(router, FIXTURE, { uploads: { directory: tempDir('uploads') }, unconfiguredLocales: 'skip' });
    for (const uid of ['api::article.article', 'api::author.author', 'api::category.category', 'api::global.global', 'plugin::upload.file']) {
      expect(purged).toContain(`t:${uid}`);
    }
    const rows = await router.engine.find('articles', { _status: 'published' }); // drafts purge nothing
    expect(rows.length).toBeGreaterThan(50);
    for (const row of rows) expect(purged).toContain(`d:${String(row.documentId)}`);
    await router.engine.close();
  });
});

describe('tags with the response cache', () => {
  test('an answer served from the response cache carries the tags of the answer it keeps', async () => {
    const { router, app } = routerWith({ cacheTags: { header: 'Surrogate-Key' }, responseCache: { maxBytes: 1 << 20 } });
    await router.ready;
    await router.documents('api::article.article').create({ data: { title: 'Kept' }, status: 'published' });
    const first = await request(app).get('/api/articles').set(auth);
    const second = await request(app).get('/api/articles').set(auth);
    expect(router.responseCache!.hits).toBe(1);
    expect(tagsOf(first, 'Surrogate-Key')[0]).toBe('t:api::article.article');
    expect(second.headers['surrogate-key']).toBe(first.headers['surrogate-key']);
    await router.engine.close();
  });
});
