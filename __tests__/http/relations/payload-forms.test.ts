import type express from 'express';
import { api, createRelationsApp, ids } from '../../fixtures/relations-model';

let app: express.Express;
let http: ReturnType<typeof api>;
let t: string[];

beforeEach(async () => {
  ({ app } = await createRelationsApp());
  http = api(app);
  t = [];
  for (const name of ['a', 'b', 'c', 'd']) t.push(await http.create('tags', { name }));
});

const tagsOf = async (doc: string, query = 'populate=tags'): Promise<unknown> =>
  ids(((await http.get(`/api/posts/${doc}?${query}`)).data as Record<string, unknown>).tags);

describe('relation payload forms (to-many)', () => {
  it('shorthand array sets the relation in the given order', async () => {
    const doc = await http.create('posts', { title: 'p', tags: [t[2], t[0]] });
    expect(await tagsOf(doc)).toEqual([t[2], t[0]]);
  });

  it('shorthand single documentId and integer ids', async () => {
    const doc = await http.create('posts', { title: 'p', tags: t[1] });
    expect(await tagsOf(doc)).toEqual([t[1]]);
    const tagRows = (await http.get('/api/tags?sort=name')).data as { id: number; documentId: string }[];
    await http.put(`/api/posts/${doc}`, { tags: [tagRows[3]!.id, tagRows[0]!.id] });
    expect(await tagsOf(doc)).toEqual([t[3], t[0]]);
  });

  it('connect / disconnect / set with strings, {documentId} and {id} items', async () => {
    const doc = await http.create('posts', { title: 'p', tags: { connect: [t[0], { documentId: t[1] }] } });
    expect(await tagsOf(doc)).toEqual([t[0], t[1]]);
    const idOfC = ((await http.get(`/api/tags/${t[2]}`)).data as { id: number }).id;
    await http.put(`/api/posts/${doc}`, { tags: { connect: [{ id: idOfC }], disconnect: [t[0]] } });
    expect(await tagsOf(doc)).toEqual([t[1], t[2]]);
    await http.put(`/api/posts/${doc}`, { tags: { set: [{ documentId: t[3] }, t[0]] } });
    expect(await tagsOf(doc)).toEqual([t[3], t[0]]);
  });

  it('{documentId, locale, status} items are accepted', async () => {
    const doc = await http.create('posts', { title: 'p', tags: { connect: [{ documentId: t[0], locale: null, status: 'published' }] } });
    expect(await tagsOf(doc)).toEqual([t[0]]);
  });

  it('positions before / after / start / end, and connecting a connected doc moves it', async () => {
    const doc = await http.create('posts', { title: 'p', tags: [t[0], t[1]] });
    await http.put(`/api/posts/${doc}`, { tags: { connect: [{ documentId: t[2], position: { before: t[1] } }] } });
    expect(await tagsOf(doc)).toEqual([t[0], t[2], t[1]]);
    await http.put(`/api/posts/${doc}`, { tags: { connect: [{ documentId: t[3], position: { start: true } }] } });
    expect(await tagsOf(doc)).toEqual([t[3], t[0], t[2], t[1]]);
    await http.put(`/api/posts/${doc}`, { tags: { connect: [{ documentId: t[3], position: { after: t[2] } }] } });
    expect(await tagsOf(doc)).toEqual([t[0], t[2], t[3], t[1]]);
    await http.put(`/api/posts/${doc}`, { tags: { connect: [{ documentId: t[0], position: { end: true } }] } });
    expect(await tagsOf(doc)).toEqual([t[2], t[3], t[1], t[0]]);
    await http.put(`/api/posts/${doc}`, { tags: { connect: [t[2]] } });
    expect(await tagsOf(doc)).toEqual([t[3], t[1], t[0], t[2]]);
  });

  it('null and [] clear', async () => {
    const doc = await http.create('posts', { title: 'p', tags: [t[0], t[1]], writer: null });
    await http.put(`/api/posts/${doc}`, { tags: [] });
    expect(await tagsOf(doc)).toEqual([]);
    await http.put(`/api/posts/${doc}`, { tags: [t[0]] });
    await http.put(`/api/posts/${doc}`, { tags: null });
    expect(await tagsOf(doc)).toEqual([]);
  });

  it('a field absent from the body keeps its relation', async () => {
    const doc = await http.create('posts', { title: 'p', tags: [t[0]] });
    await http.put(`/api/posts/${doc}`, { title: 'q' });
    expect(await tagsOf(doc)).toEqual([t[0]]);
  });
});

describe('relation payload forms (to-one)', () => {
  const pinnedOf = async (doc: string): Promise<unknown> =>
    ids(((await http.get(`/api/posts/${doc}?populate=pinned`)).data as Record<string, unknown>).pinned);

  it('documentId, {documentId}, {id}, connect, set, disconnect, null', async () => {
    const doc = await http.create('posts', { title: 'p', pinned: t[0] });
    expect(await pinnedOf(doc)).toBe(t[0]);
    await http.put(`/api/posts/${doc}`, { pinned: { documentId: t[1] } });
    expect(await pinnedOf(doc)).toBe(t[1]);
    const idOfC = ((await http.get(`/api/tags/${t[2]}`)).data as { id: number }).id;
    await http.put(`/api/posts/${doc}`, { pinned: { connect: [{ id: idOfC }] } });
    expect(await pinnedOf(doc)).toBe(t[2]);
    await http.put(`/api/posts/${doc}`, { pinned: { set: [t[3]] } });
    expect(await pinnedOf(doc)).toBe(t[3]);
    await http.put(`/api/posts/${doc}`, { pinned: { disconnect: [t[3]] } });
    expect(await pinnedOf(doc)).toBeNull();
    await http.put(`/api/posts/${doc}`, { pinned: t[0] });
    await http.put(`/api/posts/${doc}`, { pinned: null });
    expect(await pinnedOf(doc)).toBeNull();
  });
});

describe('unknown targets', () => {
  const expectNotFound = (body: Record<string, unknown>, name: string): void => {
    const error = body.error as { status: number; name: string; message: string };
    expect(error.status).toBe(400);
    expect(error.name).toBe('ValidationError');
    expect(error.message).toContain(`"${name}"`);
  };

  it('create with an unknown target is a 400 naming it, and nothing is created', async () => {
    expectNotFound(await http.post('/api/posts', { title: 'p', tags: [t[0], 'nope'] }, 400), 'nope');
    expect(((await http.get('/api/posts?status=draft')).data as unknown[]).length).toBe(0);
    expectNotFound(await http.post('/api/posts', { title: 'p', writer: 'ghost' }, 400), 'ghost');
    expect(((await http.get('/api/posts?status=draft')).data as unknown[]).length).toBe(0);
  });

  it('update with a bad last relation leaves the document unchanged', async () => {
    const writer = await http.create('writers', { name: 'w' });
    const doc = await http.create('posts', { title: 'p', tags: [t[0]] });
    const before = await http.get(`/api/posts/${doc}?populate=*&status=draft`);
    const beforePublished = await http.get(`/api/posts/${doc}?populate=*`);
    const body = { title: 'changed', views: 9, writer, tags: { connect: [t[1]] }, pinned: t[2], shelf: ['missing-book'] };
    expectNotFound(await http.put(`/api/posts/${doc}`, body, 400), 'missing-book');
    expect(await http.get(`/api/posts/${doc}?populate=*&status=draft`)).toEqual(before);
    expect(await http.get(`/api/posts/${doc}?populate=*`)).toEqual(beforePublished);
    expect(((await http.get(`/api/writers/${writer}?populate=posts`)).data as { posts: unknown[] }).posts).toEqual([]);
  });

  it('an unknown target given on the mappedBy side writes nothing', async () => {
    const writer = await http.create('writers', { name: 'w' });
    const doc = await http.create('posts', { title: 'p' });
    expectNotFound(await http.put(`/api/writers/${writer}`, { name: 'w2', posts: [doc, 'zzz'] }, 400), 'zzz');
    const after = (await http.get(`/api/writers/${writer}?populate=posts`)).data as { name: string; posts: unknown[] };
    expect(after.name).toBe('w');
    expect(after.posts).toEqual([]);
  });

  it('a position naming a doc that is not connected is a 400; options.strict=false puts it at the end', async () => {
    const doc = await http.create('posts', { title: 'p', tags: [t[0]] });
    const res = await http.put(`/api/posts/${doc}`, { tags: { connect: [{ documentId: t[1], position: { before: t[3] } }] } }, 400);
    expect((res.error as { message: string }).message).toContain(`The relation with id ${t[3]} needs to be connected first.`);
    expect(await tagsOf(doc)).toEqual([t[0]]);
    await http.put(`/api/posts/${doc}`, { tags: { connect: [{ documentId: t[1], position: { before: t[3] } }], options: { strict: false } } });
    expect(await tagsOf(doc)).toEqual([t[0], t[1]]);
  });

  it('a {documentId, locale} item must name an existing localization of a localized target', async () => {
    const writer = await http.create('writers', { name: 'w' });
    const post = await http.create('posts', { title: 'p' });
    const res = await http.put(`/api/writers/${writer}`, { posts: { connect: [{ documentId: post, locale: 'fr' }] } }, 400);
    expectNotFound(res, post);
    expect((res.error as { message: string }).message).toBe(`Document with id "${post}", locale "fr" not found`);
    await http.put(`/api/writers/${writer}`, { posts: { connect: [{ documentId: post, locale: 'en' }] } });
  });

  it('an unknown integer id is a 400 naming it', async () => {
    expectNotFound(await http.post('/api/posts', { title: 'p', tags: [987654] }, 400), '987654');
  });
});
