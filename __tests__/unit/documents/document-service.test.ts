import type { ContentRouter, Documents } from '../../../lib';
import { createRelationsApp, UID } from '../../fixtures/relations-model';

let router: ContentRouter;
let posts: Documents;

beforeEach(async () => {
  ({ router } = await createRelationsApp());
  posts = router.documents(UID.post);
});

describe('router.documents(uid)', () => {
  it('create publishes by default and answers the published document', async () => {
    const doc = await posts.create({ title: 'a' });
    expect(doc).toMatchObject({ title: 'a', locale: 'en' });
    expect(typeof doc.publishedAt).toBe('string');
  });

  it('create with status draft, then publish, unpublish and discardDraft', async () => {
    const draft = await posts.create({ title: 'd' }, { status: 'draft' });
    const documentId = draft.documentId as string;
    expect(draft.publishedAt).toBeNull();
    expect(await posts.findOne(documentId)).toBeNull();
    const published = await posts.publish(documentId);
    expect(published).toMatchObject({ documentId, title: 'd' });
    expect(typeof published!.publishedAt).toBe('string');
    await posts.update(documentId, { title: 'changed' }, { status: 'draft' });
    const restored = await posts.discardDraft(documentId);
    expect(restored).toMatchObject({ title: 'd', publishedAt: null });
    expect(await posts.unpublish(documentId)).toBe(1);
    expect(await posts.findOne(documentId)).toBeNull();
    expect(await posts.findOne(documentId, 'status=draft')).toMatchObject({ title: 'd' });
    expect(await posts.discardDraft(documentId)).toBeNull();
  });

  it('findMany / findOne / findFirst take a query string', async () => {
    await posts.create({ title: 'b', views: 2 });
    const a = await posts.create({ title: 'a', views: 1 });
    const list = await posts.findMany('sort=title&fields[0]=title');
    expect(list.data.map((d) => d.title)).toEqual(['a', 'b']);
    expect(list.pagination).toMatchObject({ page: 1, total: 2 });
    expect(await posts.findOne(a.documentId as string, 'fields[0]=views')).toMatchObject({ views: 1 });
    expect(await posts.findFirst('filters[views][$gt]=1')).toMatchObject({ title: 'b' });
    expect(await posts.findOne('missing')).toBeNull();
  });

  it('anyDocumentId finds a stored document in any status, or nothing', async () => {
    expect(await posts.anyDocumentId()).toBeUndefined();
    const draft = await posts.create({ title: 'only a draft' }, { status: 'draft' });
    expect(await posts.anyDocumentId()).toBe(draft.documentId);
  });

  it('update returns null for an unknown document; locales are written with options.locale', async () => {
    expect(await posts.update('missing', { title: 'x' })).toBeNull();
    const en = await posts.create({ title: 'hello' });
    const fr = await posts.update(en.documentId as string, { title: 'bonjour' }, { locale: 'fr', query: 'fields[0]=title' });
    expect(fr).toEqual({ id: expect.any(Number), documentId: en.documentId, title: 'bonjour' });
    expect(await posts.findOne(en.documentId as string, 'locale=fr')).toMatchObject({ title: 'bonjour' });
  });

  it('delete removes one locale, or every locale with "*"', async () => {
    const doc = await posts.create({ title: 'hello' });
    const documentId = doc.documentId as string;
    await posts.update(documentId, { title: 'bonjour' }, { locale: 'fr' });
    expect(await posts.delete(documentId, { locale: 'fr' })).toBe(2);
    expect(await posts.findOne(documentId, 'locale=fr')).toBeNull();
    await posts.update(documentId, { title: 'bonjour' }, { locale: 'fr' });
    expect(await posts.delete(documentId, { locale: '*' })).toBe(4);
    expect((await posts.findMany('locale=*&status=draft')).data).toEqual([]);
  });

  it('a document service of a type without draft & publish', async () => {
    const tags = router.documents(UID.tag);
    const tag = await tags.create({ name: 't' }, { status: 'draft' });
    expect(typeof tag.publishedAt).toBe('string');
    expect(await tags.publish(tag.documentId as string)).toBeNull();
  });

  it('rejects invalid data with Strapi\'s ValidationError', async () => {
    await expect(posts.create({ title: null })).rejects.toMatchObject({ name: 'ValidationError', status: 400 });
    await expect(posts.create({ title: 'x', tags: ['ghost'] })).rejects.toMatchObject({ name: 'ValidationError' });
  });
});
