import sharp from 'sharp';
import request from 'supertest';
import type { EventPayload } from '../../../lib';
import { settled, startWebhookApp, waitFor, type WebhookTestApp } from '../../helpers/webhooks';

/** Strapi's media keys of an event (the upload plugin's sanitized file row: no `isUrlSigned`). */
const MEDIA_KEYS = [
  'id', 'documentId', 'name', 'alternativeText', 'caption', 'focalPoint', 'width', 'height', 'formats', 'hash', 'ext', 'mime',
  'size', 'url', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt', 'publishedAt',
].sort();

let t: WebhookTestApp;
const heard: EventPayload[] = [];
const articles = () => t.router.documents('api::article.article');
const bodies = (event: string) => t.calls(event).map((c) => c.body as Record<string, any>);

beforeAll(async () => {
  t = await startWebhookApp();
  t.router.on('*', (payload) => void heard.push(payload));
});
afterAll(() => t.close());

describe('entry events, as Strapi 5 emits them', () => {
  let documentId: string;

  it('a published create: entry.create of the draft, then entry.publish of the published version', async () => {
    const author = await t.router.documents('api::author.author').create({ data: { name: 'Ann', email: 'ann@example.com' } });
    const created = await articles().create({ data: { title: 'Hello', author: author.documentId }, status: 'published' });
    documentId = created.documentId as string;
    await settled(t.router);
    const [create] = bodies('entry.create').filter((b) => b.uid === 'api::article.article');
    const [publish] = bodies('entry.publish');
    expect(create).toMatchObject({ event: 'entry.create', model: 'article', uid: 'api::article.article', entry: { documentId, publishedAt: null, locale: 'en', title: 'Hello' } });
    expect(publish).toMatchObject({ event: 'entry.publish', entry: { documentId, title: 'Hello', locale: 'en' } });
    expect(publish!.entry.publishedAt).toEqual(expect.any(String));
    // Relations populated one level (scalar fields), media, components and zones: Strapi's deep populate.
    expect(create!.entry.author).toMatchObject({ documentId: author.documentId, name: 'Ann' });
    expect(create!.entry.author).not.toHaveProperty('articles');
    expect(create!.entry).toMatchObject({ categories: [], gallery: [], blocks: [], seo: null, cover: null });
    expect(Object.keys(create!)).toEqual(['event', 'createdAt', 'model', 'uid', 'entry']);
  });

  it('sends the headers of the recording and a stable delivery id', () => {
    const [call] = t.calls('entry.publish');
    expect(call!.headers).toMatchObject({ 'x-strapi-event': 'entry.publish', 'content-type': 'application/json', 'x-oracle': 'recorder' });
    expect(call!.headers['webhook-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    expect(call!.headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(call!.headers['webhook-signature']).toBeUndefined(); // no secret
  });

  it('an update of the draft: entry.update only; with the default status, entry.update then entry.publish', async () => {
    await articles().update({ documentId, data: { title: 'Draft edit' } });
    await articles().update({ documentId, data: { title: 'Published edit' }, status: 'published' });
    await settled(t.router);
    // Calls run concurrently (up to 5, as Strapi's): arrival order is not event order.
    expect(bodies('entry.update').map((b) => [b.entry.title, b.entry.publishedAt]).sort()).toEqual([['Draft edit', null], ['Published edit', null]]);
    expect(bodies('entry.publish').map((b) => b.entry.title).sort()).toEqual(['Hello', 'Published edit']);
  });

  it('unpublish: entry.unpublish of the published version, not populated (as Strapi: the row is gone)', async () => {
    await articles().unpublish({ documentId });
    await settled(t.router);
    const [unpublish] = bodies('entry.unpublish');
    expect(unpublish).toMatchObject({ event: 'entry.unpublish', uid: 'api::article.article', entry: { documentId, title: 'Published edit' } });
    expect(unpublish!.entry.publishedAt).toEqual(expect.any(String));
    expect(unpublish!.entry).not.toHaveProperty('author');
  });

  it('discardDraft: entry.draft-discard of the new draft, populated', async () => {
    await articles().publish({ documentId });
    await articles().update({ documentId, data: { title: 'To be discarded' } });
    await articles().discardDraft({ documentId });
    await settled(t.router);
    const [discard] = bodies('entry.draft-discard');
    expect(discard).toMatchObject({ event: 'entry.draft-discard', entry: { documentId, title: 'Published edit', publishedAt: null } });
    expect(discard!.entry.author).toMatchObject({ name: 'Ann' });
  });

  it('delete: entry.delete of every version (draft and published), not populated', async () => {
    await articles().delete({ documentId });
    await settled(t.router);
    const deleted = bodies('entry.delete').filter((b) => b.entry.documentId === documentId);
    expect(deleted.map((b) => (b.entry.publishedAt === null ? 'draft' : 'published')).sort()).toEqual(['draft', 'published']);
    expect(deleted[0]!.entry).not.toHaveProperty('author');
  });

  it('a write that fails announces nothing (its transaction rolled back)', async () => {
    const before = t.receiver.calls.length;
    await expect(t.router.documents('api::author.author').create({ data: { name: 'Twin', email: 'ann@example.com' } })).rejects.toThrow();
    await t.router.documents('api::category.category').create({ data: { name: 'After the failure' } });
    await settled(t.router);
    expect(t.receiver.calls.slice(before).map((c) => [c.headers['x-strapi-event'], (c.body as any).entry.name])).toEqual([['entry.create', 'After the failure']]);
  });

  it('REST writes fire the same events as the Document Service', async () => {
    const res = await request(t.app).post('/api/categories').set('Authorization', `Bearer ${t.token}`).send({ data: { name: 'Over REST' } });
    expect(res.status).toBe(201);
    await settled(t.router);
    expect(bodies('entry.create').at(-1)).toMatchObject({ uid: 'api::category.category', entry: { name: 'Over REST', articles: [], children: [], parent: null } });
  });
});

describe('media events', () => {
  let id: number;

  it('media.create for each uploaded file, the file as Strapi shows it', async () => {
    const png = await sharp({ create: { width: 4, height: 3, channels: 3, background: { r: 1, g: 2, b: 3 } } }).png().toBuffer();
    const res = await request(t.app).post('/api/upload').set('Authorization', `Bearer ${t.token}`).attach('files', png, 'one.png').attach('files', png, 'two.png');
    expect(res.status).toBe(201);
    id = res.body[0].id;
    await settled(t.router);
    const created = bodies('media.create');
    expect(created.map((b) => b.media.name).sort()).toEqual(['one.png', 'two.png']);
    expect(Object.keys(created[0]!).sort()).toEqual(['createdAt', 'event', 'media']);
    expect(Object.keys(created[0]!.media).sort()).toEqual(MEDIA_KEYS);
  });

  it('media.update when the file info changes', async () => {
    const res = await request(t.app).post(`/api/upload?id=${id}`).set('Authorization', `Bearer ${t.token}`).field('fileInfo', JSON.stringify({ alternativeText: 'alt' }));
    expect(res.status).toBe(200);
    await settled(t.router);
    expect(bodies('media.update')).toEqual([expect.objectContaining({ event: 'media.update', media: expect.objectContaining({ id, alternativeText: 'alt' }) })]);
  });

  it('media.delete with the deleted file', async () => {
    const res = await request(t.app).delete(`/api/upload/files/${id}`).set('Authorization', `Bearer ${t.token}`);
    expect(res.status).toBe(200);
    await settled(t.router);
    expect(bodies('media.delete')).toEqual([expect.objectContaining({ media: expect.objectContaining({ id, name: 'one.png' }) })]);
  });
});

describe('router.on', () => {
  it('hears every event with the payload the webhook got', async () => {
    await waitFor(() => heard.length === t.receiver.calls.length);
    const byJson = (list: unknown[]) => list.map((x) => JSON.stringify(x)).sort();
    expect(byJson(heard)).toEqual(byJson(t.receiver.calls.map((c) => c.body)));
  });

  it('a listener that throws is logged, the write and the other listeners go on', async () => {
    const errors: string[] = [];
    const spy = jest.spyOn(console, 'error').mockImplementation((m: string) => void errors.push(String(m)));
    const got: string[] = [];
    const off = t.router.on('entry.create', () => {
      throw new Error('listener broke');
    });
    const off2 = t.router.on('entry.create', (p) => void got.push(p.event));
    try {
      await t.router.documents('api::category.category').create({ data: { name: 'Listened' } });
      await waitFor(() => got.length === 1);
      expect(errors.join('\n')).toContain('listener broke');
    } finally {
      off();
      off2();
      spy.mockRestore();
    }
  });
});

describe('subscriptions', () => {
  it('a webhook gets only the events it lists; a disabled one gets none', async () => {
    const only = await t.router.webhooks.create({ id: 'publish-only', url: t.receiver.url, events: ['entry.publish'], headers: { 'X-Hook': 'publish-only' } });
    await t.router.webhooks.create({ id: 'off', url: t.receiver.url, enabled: false, headers: { 'X-Hook': 'off' } });
    expect(only).toMatchObject({ id: 'publish-only', events: ['entry.publish'], enabled: true, signed: false, source: 'api' });
    await articles().create({ data: { title: 'Subscribed' }, status: 'published' });
    await settled(t.router);
    const hooks = t.receiver.calls.filter((c) => c.headers['x-hook'] !== undefined).map((c) => `${String(c.headers['x-hook'])} ${String(c.headers['x-strapi-event'])}`);
    expect(hooks).toEqual(['publish-only entry.publish']);
    await t.router.webhooks.remove('publish-only');
    await t.router.webhooks.remove('off');
  });
});
