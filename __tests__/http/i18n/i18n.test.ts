import type express from 'express';
import { api, createRelationsApp, data, ids, list, type Body } from '../../fixtures/relations-model';

let app: express.Express;
let http: ReturnType<typeof api>;

beforeEach(async () => {
  ({ app } = await createRelationsApp());
  http = api(app);
});

describe('i18n over REST', () => {
  it('reads and writes a locale; the default locale otherwise', async () => {
    const doc = await http.create('posts', { title: 'hello' });
    expect(data(await http.get(`/api/posts/${doc}`)).locale).toBe('en');
    const fr = data(await http.put(`/api/posts/${doc}?locale=fr`, { title: 'bonjour' }));
    expect(fr).toMatchObject({ documentId: doc, locale: 'fr', title: 'bonjour' });
    expect(data(await http.get(`/api/posts/${doc}?locale=fr`)).title).toBe('bonjour');
    expect(data(await http.get(`/api/posts/${doc}`)).title).toBe('hello');
    expect(list(await http.get('/api/posts?locale=fr')).map((p) => p.title)).toEqual(['bonjour']);
  });

  it('POST ?locale=fr creates a document that only exists in fr', async () => {
    const doc = await http.create('posts', { title: 'seulement' }, '?locale=fr');
    await http.get(`/api/posts/${doc}`, 404);
    expect(list(await http.get('/api/posts')).length).toBe(0);
    expect(data(await http.get(`/api/posts/${doc}?locale=fr`)).title).toBe('seulement');
  });

  it('locale=* lists every locale; filters[locale] replaces the default-locale restriction', async () => {
    const doc = await http.create('posts', { title: 'hello' });
    await http.put(`/api/posts/${doc}?locale=fr`, { title: 'bonjour' });
    expect(list(await http.get('/api/posts?locale=*&sort=title')).map((p) => p.locale)).toEqual(['fr', 'en']);
    expect(list(await http.get('/api/posts?filters[locale][$eq]=fr')).map((p) => p.title)).toEqual(['bonjour']);
    await http.get(`/api/posts/${doc}?locale=*`, 404);
  });

  it('locale inside a body is ignored on create and update', async () => {
    const created = data(await http.post('/api/posts?locale=fr', { title: 'x', locale: 'en' }));
    expect(created.locale).toBe('fr');
    const updated = data(await http.put(`/api/posts/${created.documentId}?locale=fr`, { title: 'y', locale: 'en' }));
    expect(updated.locale).toBe('fr');
    await http.get(`/api/posts/${created.documentId}`, 404);
  });

  it('an unconfigured locale on write is a 400 naming the configured locales', async () => {
    const res = await http.post('/api/posts?locale=de', { title: 'x' }, 400);
    expect((res.error as Body).message).toBe('Invalid locale "de": the configured locales are en, fr');
    expect(list(await http.get('/api/posts?locale=*&status=draft'))).toEqual([]);
  });

  it('an unknown locale on read is an empty list / 404; locale on a non-localized type is ignored', async () => {
    const doc = await http.create('posts', { title: 'hello' });
    expect(list(await http.get('/api/posts?locale=de'))).toEqual([]);
    await http.get(`/api/posts/${doc}?locale=de`, 404);
    const tag = data(await http.post('/api/tags?locale=fr', { name: 't' }));
    expect(tag.locale).toBeUndefined();
    expect(list(await http.get('/api/tags?locale=fr')).length).toBe(1);
  });

  it('DELETE ?locale=fr deletes that localization only; DELETE without locale the default locale only', async () => {
    const doc = await http.create('posts', { title: 'hello' });
    await http.put(`/api/posts/${doc}?locale=fr`, { title: 'bonjour' });
    await http.del(`/api/posts/${doc}?locale=fr`);
    await http.get(`/api/posts/${doc}?locale=fr`, 404);
    expect(data(await http.get(`/api/posts/${doc}`)).title).toBe('hello');
    await http.put(`/api/posts/${doc}?locale=fr`, { title: 'encore' });
    await http.del(`/api/posts/${doc}`);
    await http.get(`/api/posts/${doc}`, 404);
    expect(data(await http.get(`/api/posts/${doc}?locale=fr`)).title).toBe('encore');
  });

  it('a document keeps its relations until its last locale is deleted', async () => {
    const w = await http.create('writers', { name: 'w' });
    const book = await http.create('books', { title: 'b' });
    const doc = await http.create('posts', { title: 'hello', writer: w });
    await http.put(`/api/posts/${doc}?locale=fr`, { title: 'bonjour', writer: w, shelf: [book] });
    await http.del(`/api/posts/${doc}`);
    expect(ids(data(await http.get(`/api/writers/${w}?populate=posts`)).posts)).toEqual([doc]);
    await http.del(`/api/posts/${doc}?locale=fr`);
    expect(ids(data(await http.get(`/api/writers/${w}?populate=posts`)).posts)).toEqual([]);
  });

  it('non-localized attributes are shared by every locale', async () => {
    const doc = await http.create('posts', { title: 'hello', views: 5 });
    const fr = data(await http.put(`/api/posts/${doc}?locale=fr`, { title: 'bonjour' }));
    expect(fr.views).toBe(5);
    await http.put(`/api/posts/${doc}?locale=fr`, { views: 8 });
    expect(data(await http.get(`/api/posts/${doc}`)).views).toBe(8);
    expect(data(await http.get(`/api/posts/${doc}?locale=fr`)).views).toBe(8);
    await http.put(`/api/posts/${doc}`, { title: 'hello again' });
    expect(data(await http.get(`/api/posts/${doc}?locale=fr`)).title).toBe('bonjour');
  });

  it('shared attributes sync into the other locales\' rows of the written status only (as Strapi does)', async () => {
    const doc = await http.create('posts', { title: 'hello', views: 1 });
    await http.put(`/api/posts/${doc}?locale=fr`, { title: 'bonjour' });
    await http.put(`/api/posts/${doc}?locale=fr&status=draft`, { views: 2 });
    expect(data(await http.get(`/api/posts/${doc}?status=draft`)).views).toBe(2);
    expect(data(await http.get(`/api/posts/${doc}`)).views).toBe(1);
    await http.put(`/api/posts/${doc}?locale=fr`, { views: 3 });
    expect(data(await http.get(`/api/posts/${doc}`)).views).toBe(3);
    expect(data(await http.get(`/api/posts/${doc}?status=draft`)).views).toBe(2);
  });

  it('populate=localizations lists the other locales', async () => {
    const doc = await http.create('posts', { title: 'hello' });
    await http.put(`/api/posts/${doc}?locale=fr`, { title: 'bonjour' });
    const en = data(await http.get(`/api/posts/${doc}?populate=localizations`));
    expect((en.localizations as Body[]).map((l) => [l.locale, l.title])).toEqual([['fr', 'bonjour']]);
    const star = data(await http.get(`/api/posts/${doc}?locale=fr&populate=*`));
    expect((star.localizations as Body[]).map((l) => l.locale)).toEqual(['en']);
  });

  it('localized single types', async () => {
    await http.put('/api/home', { headline: 'Welcome', hits: 3 });
    await http.put('/api/home?locale=fr', { headline: 'Bienvenue' });
    expect(data(await http.get('/api/home?locale=fr'))).toMatchObject({ headline: 'Bienvenue', locale: 'fr', hits: 3 });
    expect(data(await http.get('/api/home'))).toMatchObject({ headline: 'Welcome', locale: 'en' });
    await http.del('/api/home?locale=fr');
    await http.get('/api/home?locale=fr', 404);
    expect(data(await http.get('/api/home')).headline).toBe('Welcome');
  });
});
