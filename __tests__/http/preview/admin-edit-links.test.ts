import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { vercelStegaDecode } from '@vercel/stega';
import express from 'express';
import request from 'supertest';
import { createAdmin, createContentRouter, memoryEngine, type ContentRouter, type ContentTypeSchema } from '../../../lib';

/**
 * The default `preview.editUrl` (docs/preview.md): once the same Express app mounts `createAdmin(router)`, a content
 * source map's `href` is the document's edit page in that admin (its hash routes `#/<pluralName>/<documentId>`, a
 * single type's `#/<singularName>`), wherever it is mounted; an explicit `editUrl` is kept.
 */
const HEADER = 'strapi-encode-source-maps';
const note: ContentTypeSchema = { kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' }, options: { draftAndPublish: false }, attributes: { title: { type: 'string' } } };
const home: ContentTypeSchema = { kind: 'singleType', info: { singularName: 'home', pluralName: 'homes', displayName: 'Home' }, options: { draftAndPublish: false }, attributes: { headline: { type: 'string' } } };

const assetsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cr-admin-links-'));
fs.writeFileSync(path.join(assetsDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');

const href = (value: unknown): string | undefined => vercelStegaDecode<{ href?: string }>(String(value))?.href;

async function site(options: { editUrl?: string } = {}): Promise<ContentRouter> {
  const router = createContentRouter({ contentTypes: [note, home], engine: memoryEngine({ ephemeral: true }), logger: false, auth: { public: { actions: ['api::note.note.find', 'api::note.note.findOne', 'api::home.home.find'] } }, ...(options.editUrl ? { preview: { editUrl: options.editUrl } } : {}) });
  await router.ready;
  await router.documents('api::note.note' as never).create({ data: { title: 'Hello' } } as never);
  await router.documents('api::home.home' as never).create({ data: { headline: 'Welcome' } } as never);
  return router;
}

async function links(app: express.Express, prefix = ''): Promise<{ list: string | undefined; one: string | undefined; single: string | undefined; documentId: string }> {
  const list = await request(app).get(`${prefix}/api/notes`).set(HEADER, 'true').expect(200);
  const documentId = list.body.data[0].documentId as string;
  const one = await request(app).get(`${prefix}/api/notes/${documentId}`).set(HEADER, 'true').expect(200);
  const single = await request(app).get(`${prefix}/api/home`).set(HEADER, 'true').expect(200);
  return { list: href(list.body.data[0].title), one: href(one.body.data.title), single: href(single.body.data.headline), documentId };
}

describe('the default preview.editUrl and the built-in admin', () => {
  it('links to the edit pages of the admin the app mounts, wherever it is', async () => {
    const router = await site();
    const app = express();
    app.use('/api', router);
    app.use('/cms', createAdmin(router, { assetsDir }));
    const got = await links(app);
    expect(got).toEqual({ list: `/cms/#/notes/${got.documentId}`, one: `/cms/#/notes/${got.documentId}`, single: '/cms/#/home', documentId: got.documentId });
  });

  it('in an app mounted under a path, the link has that path too', async () => {
    const router = await site();
    const inner = express();
    inner.use('/api', router);
    inner.use('/admin', createAdmin(router, { assetsDir }));
    const outer = express();
    outer.use('/site', inner);
    const got = await links(outer, '/site');
    expect(got.one).toBe(`/site/admin/#/notes/${got.documentId}`);
  });

  it('without a mounted admin: the example admin, as before; an explicit editUrl is kept', async () => {
    const bare = await site();
    const app = express();
    app.use('/api', bare);
    createAdmin(bare, { assetsDir }); // made but mounted nowhere
    const got = await links(app);
    expect(got.one).toBe(`http://localhost:5173/#/notes/${got.documentId}`);

    const custom = await site({ editUrl: 'https://cms.example.com/edit/{model}/{documentId}' });
    const app2 = express();
    app2.use('/api', custom);
    app2.use('/admin', createAdmin(custom, { assetsDir }));
    const mine = await links(app2);
    expect(mine.one).toBe(`https://cms.example.com/edit/api%3A%3Anote.note/${mine.documentId}`);
  });
});
