import type express from 'express';
import { api, createRelationsApp, data, ids, list, type Body } from '../../fixtures/relations-model';

let app: express.Express;
let http: ReturnType<typeof api>;

beforeEach(async () => {
  ({ app } = await createRelationsApp());
  http = api(app);
});

describe('draft & publish over REST', () => {
  it('a write publishes by default: the response is the published version', async () => {
    const created = data(await http.post('/api/posts', { title: 'p' }));
    expect(typeof created.publishedAt).toBe('string');
    expect(data(await http.get(`/api/posts/${created.documentId}`)).title).toBe('p');
    expect(data(await http.get(`/api/posts/${created.documentId}?status=draft`)).publishedAt).toBeNull();
  });

  it('?status=draft writes the draft only; a never-published document is 404 and unlisted', async () => {
    const created = data(await http.post('/api/posts?status=draft', { title: 'draft' }));
    expect(created.publishedAt).toBeNull();
    await http.get(`/api/posts/${created.documentId}`, 404);
    expect(list(await http.get('/api/posts'))).toEqual([]);
    expect(list(await http.get('/api/posts?status=draft')).map((p) => p.title)).toEqual(['draft']);
  });

  it('PUT ?status=draft changes the draft only; PUT ?status=published {} publishes it', async () => {
    const doc = await http.create('posts', { title: 'v1' });
    await http.put(`/api/posts/${doc}?status=draft`, { title: 'v2' });
    expect(data(await http.get(`/api/posts/${doc}`)).title).toBe('v1');
    expect(data(await http.get(`/api/posts/${doc}?status=draft`)).title).toBe('v2');
    const published = data(await http.put(`/api/posts/${doc}?status=published`, {}));
    expect(published.title).toBe('v2');
    expect(data(await http.get(`/api/posts/${doc}`)).title).toBe('v2');
  });

  it('publishedAt in a body is ignored', async () => {
    const doc = await http.create('posts', { title: 'p' });
    await http.put(`/api/posts/${doc}`, { publishedAt: null, title: 'q' });
    expect(data(await http.get(`/api/posts/${doc}`)).title).toBe('q');
    const draft = data(await http.post('/api/posts?status=draft', { title: 'd', publishedAt: '2024-01-01T00:00:00.000Z' }));
    expect(draft.publishedAt).toBeNull();
    await http.get(`/api/posts/${draft.documentId}`, 404);
  });

  it('every publish gives a new id: the entry moves to the end of the default order', async () => {
    const a = data(await http.post('/api/posts', { title: 'a' }));
    await http.create('posts', { title: 'b' });
    await http.put(`/api/posts/${a.documentId}`, { title: 'a2' });
    const after = list(await http.get('/api/posts'));
    expect(after.map((p) => p.title)).toEqual(['b', 'a2']);
    expect(after[1]!.id).not.toBe(a.id);
  });

  it('relations resolve to rows of the same status', async () => {
    const w = await http.create('writers', { name: 'w' });
    const doc = await http.create('posts', { title: 'p' });
    await http.put(`/api/posts/${doc}?status=draft`, { writer: w, title: 'p-draft' });
    expect(ids(data(await http.get(`/api/posts/${doc}?populate=writer`)).writer)).toBeNull();
    expect(ids(data(await http.get(`/api/posts/${doc}?populate=writer&status=draft`)).writer)).toBe(w);
  });

  it('reverse relations list only published targets on published reads', async () => {
    const tag = await http.create('tags', { name: 't' });
    const pub = await http.create('posts', { title: 'pub', tags: [tag] });
    const draftOnly = await http.create('posts', { title: 'draft', tags: [tag] }, '?status=draft');
    expect(ids(data(await http.get(`/api/tags/${tag}?populate=posts`)).posts)).toEqual([pub]);
    // The tag type has no draft & publish: status is ignored there, the draft-only post stays hidden.
    expect(ids(data(await http.get(`/api/tags/${tag}?populate=posts&status=draft`)).posts)).toEqual([pub]);
    expect(ids(data(await http.get(`/api/posts/${draftOnly}?populate=tags&status=draft`)).tags)).toEqual([tag]);
  });

  it('types without draft & publish ignore status', async () => {
    const created = data(await http.post('/api/tags?status=draft', { name: 't' }));
    expect(typeof created.publishedAt).toBe('string');
    expect(list(await http.get('/api/tags')).length).toBe(1);
    expect(list(await http.get('/api/tags?status=draft')).length).toBe(1);
    expect(data(await http.get(`/api/tags/${created.documentId}?status=draft`)).name).toBe('t');
  });

  it('a localized single type with drafts', async () => {
    await http.put('/api/home?status=draft', { headline: 'draft' });
    await http.get('/api/home', 404);
    expect(data(await http.get('/api/home?status=draft')).headline).toBe('draft');
    await http.put('/api/home?status=published', {});
    expect(data(await http.get('/api/home')).headline).toBe('draft');
  });
});
