import type { ContentRouter } from '../../../lib';
import { createModelApp, createRelationsApp, shelvesContentTypes, UID, type Api, type Body } from '../../fixtures/relations-model';

/**
 * The order of a to-many `mappedBy` side (writer.posts of post.writer, tag.posts of post.tags, tag.children of
 * tag.parent) is kept as Strapi keeps it (its inverse order column): positions from that side, appends at the end
 * from either side, `set`, disconnects, publish and discard, locales, deletes.
 */
let router: ContentRouter;
let http: Api;

beforeEach(async () => {
  ({ router, http } = await createRelationsApp());
});

const posts = (writer: string, query = '') => http.related(`/api/writers/${writer}?populate=posts${query}`, 'posts');
const titles = async (url: string, name: string): Promise<string[]> =>
  (((await http.get(url)).data as Body)[name] as Body[]).map((p) => p.title as string);

/** A writer with three published posts p1, p2, p3 linked from the posts' side (in that order). */
async function writerWithPosts(): Promise<{ w: string; p: string[] }> {
  const w = await http.create('writers', { name: 'w' });
  const p = [];
  for (const title of ['p1', 'p2', 'p3']) p.push(await http.create('posts', { title, writer: w }));
  return { w, p };
}

describe('the order of a mappedBy side', () => {
  it('connect from the mappedBy side with a position (start, before, after, end) reorders it', async () => {
    const { w, p } = await writerWithPosts();
    const [p1, p2, p3] = p as [string, string, string];
    expect(await posts(w)).toEqual([p1, p2, p3]);
    await http.put(`/api/writers/${w}`, { posts: { connect: [{ documentId: p3, position: { start: true } }] } });
    expect(await posts(w)).toEqual([p3, p1, p2]);
    await http.put(`/api/writers/${w}`, { posts: { connect: [{ documentId: p2, position: { before: p1 } }] } });
    expect(await posts(w)).toEqual([p3, p2, p1]);
    await http.put(`/api/writers/${w}`, { posts: { connect: [{ documentId: p3, position: { after: p1 } }] } });
    expect(await posts(w)).toEqual([p2, p1, p3]);
    await http.put(`/api/writers/${w}`, { posts: { connect: [{ documentId: p2, position: { end: true } }] } });
    expect(await posts(w)).toEqual([p1, p3, p2]);
  });

  it('a position naming a document that is not connected is a 400 (strict), at the end with strict: false', async () => {
    const { w, p } = await writerWithPosts();
    const other = await http.create('posts', { title: 'other' });
    const res = await http.put(`/api/writers/${w}`, { posts: { connect: [{ documentId: p[0]!, position: { before: other } }] } }, 400);
    expect((res.error as Body).name).toBe('ValidationError');
    await http.put(`/api/writers/${w}`, { posts: { connect: [{ documentId: p[0]!, position: { before: other } }], options: { strict: false } } });
    expect(await posts(w)).toEqual([p[1], p[2], p[0]]);
  });

  it('a plain connect from the mappedBy side appends at the end, whatever the row ids', async () => {
    const early = await http.create('posts', { title: 'early' });
    const w = await http.create('writers', { name: 'w' });
    const late = await http.create('posts', { title: 'late', writer: w });
    await http.put(`/api/writers/${w}`, { posts: { connect: [early] } });
    expect(await posts(w)).toEqual([late, early]);
  });

  it('a link made from the owning side lands at the end; an owner write that keeps the link keeps its place', async () => {
    const { w, p } = await writerWithPosts();
    await http.put(`/api/writers/${w}`, { posts: { set: [p[2]!, p[1]!, p[0]!] } });
    const early = await http.create('posts', { title: 'early' });
    await http.put(`/api/posts/${early}`, { writer: w });
    await http.put(`/api/posts/${p[1]}`, { title: 'p2 again', writer: w });
    expect(await posts(w)).toEqual([p[2], p[1], p[0], early]);
  });

  it('set (longhand and shorthand) gives the order; disconnect keeps the order of the rest', async () => {
    const { w, p } = await writerWithPosts();
    await http.put(`/api/writers/${w}`, { posts: { set: [p[2]!, p[0]!, p[1]!] } });
    expect(await posts(w)).toEqual([p[2], p[0], p[1]]);
    await http.put(`/api/writers/${w}`, { posts: [p[1]!, p[2]!, p[0]!] });
    expect(await posts(w)).toEqual([p[1], p[2], p[0]]);
    await http.put(`/api/writers/${w}`, { posts: { disconnect: [p[2]!] } });
    expect(await posts(w)).toEqual([p[1], p[0]]);
  });

  it('manyToMany: the tag side keeps its own order, apart from the posts side', async () => {
    const [a, b] = [await http.create('tags', { name: 'a' }), await http.create('tags', { name: 'b' })];
    const p1 = await http.create('posts', { title: 'p1', tags: [a, b] });
    const p2 = await http.create('posts', { title: 'p2', tags: [b, a] });
    await http.put(`/api/tags/${b}`, { posts: { set: [p2, p1] } });
    const p3 = await http.create('posts', { title: 'p3', tags: [b] });
    expect(await http.related(`/api/tags/${b}?populate=posts`, 'posts')).toEqual([p2, p1, p3]);
    expect(await http.related(`/api/tags/${a}?populate=posts`, 'posts')).toEqual([p1, p2]);
    await http.put(`/api/tags/${a}`, { posts: { connect: [{ documentId: p2, position: { start: true } }] } });
    expect(await http.related(`/api/tags/${a}?populate=posts`, 'posts')).toEqual([p2, p1]);
    expect(await http.related(`/api/tags/${b}?populate=posts`, 'posts')).toEqual([p2, p1, p3]);
    expect(await http.related(`/api/posts/${p2}?populate=tags`, 'tags')).toEqual([b, a]);
  });

  it('self relation: tag.children keeps the order given from the parent', async () => {
    const parent = await http.create('tags', { name: 'parent' });
    const c1 = await http.create('tags', { name: 'c1', parent });
    const c2 = await http.create('tags', { name: 'c2', parent });
    await http.put(`/api/tags/${parent}`, { children: { connect: [{ documentId: c2, position: { before: c1 } }] } });
    expect(await http.related(`/api/tags/${parent}?populate=children`, 'children')).toEqual([c2, c1]);
  });

  it('a republished post keeps its place on the published side; a discarded draft keeps its place on the draft side', async () => {
    const { w, p } = await writerWithPosts();
    await http.put(`/api/writers/${w}`, { posts: { set: [p[1]!, p[0]!, p[2]!] } });
    await http.put(`/api/posts/${p[1]}`, { title: 'p2 republished' });
    expect(await posts(w)).toEqual([p[1], p[0], p[2]]);
    await http.put(`/api/posts/${p[1]}?status=draft`, { title: 'p2 draft' });
    await router.documents(UID.post).discardDraft(p[1]!);
    expect(await titles(`/api/writers/${w}?status=draft&populate=posts`, 'posts')).toEqual(['p2 republished', 'p1', 'p3']);
  });

  it('a post newly published with this writer goes at the end of the published side', async () => {
    const { w, p } = await writerWithPosts();
    const draft = await http.create('posts', { title: 'draft' }, '?status=draft');
    await http.put(`/api/writers/${w}`, { posts: { set: [p[2]!, p[1]!, p[0]!] } });
    await http.put(`/api/posts/${draft}`, { writer: w });
    expect(await posts(w)).toEqual([p[2], p[1], p[0], draft]);
  });

  it('locales: each localization of a post has its own place, set from the writer moves all of them', async () => {
    const { w, p } = await writerWithPosts();
    await http.put(`/api/posts/${p[0]}?locale=fr`, { title: 'p1 fr', writer: w });
    const rows = async () => titles(`/api/writers/${w}?populate=posts`, 'posts');
    expect(await rows()).toEqual(['p1', 'p2', 'p3', 'p1 fr']);
    await http.put(`/api/writers/${w}`, { posts: { set: [p[2]!, p[0]!, p[1]!] } });
    expect(await rows()).toEqual(['p3', 'p1', 'p1 fr', 'p2']);
  });

  it('deleting a post keeps the order of the others', async () => {
    const { w, p } = await writerWithPosts();
    await http.put(`/api/writers/${w}`, { posts: { set: [p[2]!, p[1]!, p[0]!] } });
    await http.del(`/api/posts/${p[1]}`);
    expect(await posts(w)).toEqual([p[2], p[0]]);
  });

  it('a populate sort replaces the kept order', async () => {
    const { w, p } = await writerWithPosts();
    await http.put(`/api/writers/${w}`, { posts: { set: [p[2]!, p[0]!, p[1]!] } });
    expect(await http.related(`/api/writers/${w}?populate[posts][sort]=title:asc`, 'posts')).toEqual(p);
  });

  it('a populate page of a mappedBy side is a page of the kept order', async () => {
    const { w, p } = await writerWithPosts();
    await http.put(`/api/writers/${w}`, { posts: { set: [p[2]!, p[0]!, p[1]!] } });
    expect(await http.related(`/api/writers/${w}?populate[posts][start]=1&populate[posts][limit]=1`, 'posts')).toEqual([p[0]]);
    const [a, b] = [await http.create('tags', { name: 'a' }), await http.create('tags', { name: 'b' })];
    await http.put(`/api/tags/${a}`, { posts: [p[1]!, p[2]!, p[0]!] });
    expect(await http.related(`/api/tags/${a}?populate[posts][start]=0&populate[posts][limit]=2`, 'posts')).toEqual([p[1], p[2]]);
    expect(await http.related(`/api/tags/${b}?populate[posts][limit]=2`, 'posts')).toEqual([]);
  });

  it('rows stored before positions were kept list by row id, and new links go after them', async () => {
    const { w, p } = await writerWithPosts();
    const tag = await http.create('tags', { name: 't' });
    await http.put(`/api/tags/${tag}`, { posts: [p[2]!, p[0]!] });
    await http.put(`/api/writers/${w}`, { posts: { set: [p[2]!, p[1]!, p[0]!] } });
    await router.engine.updateMany('posts', {}, { $unset: { _inverseOrder: '' } });
    expect(await posts(w)).toEqual(p);
    expect(await http.related(`/api/tags/${tag}?populate=posts`, 'posts')).toEqual([p[0], p[2]]);
    const p4 = await http.create('posts', { title: 'p4', writer: w, tags: [tag] });
    expect(await posts(w)).toEqual([...p, p4]);
    expect(await http.related(`/api/tags/${tag}?populate=posts`, 'posts')).toEqual([p[0], p[2], p4]);
  });
});

describe('the order of a mappedBy side whose both types have draft & publish', () => {
  let shelves: Api;
  let engine: ContentRouter['engine'];
  beforeEach(async () => {
    ({ http: shelves, router: { engine } } = await createModelApp(shelvesContentTypes));
  });
  const items = async (shelf: string, status: string) => shelves.related(`/api/shelves/${shelf}?status=${status}&populate=items`, 'items');

  it('publishing the shelf gives its published side the draft\'s order', async () => {
    const s = await shelves.create('shelves', { name: 's' });
    const i1 = await shelves.create('items', { title: 'i1', shelf: s });
    const i2 = await shelves.create('items', { title: 'i2', shelf: s });
    // Draft-only writes move i1 to the end of the draft side; the published side keeps [i1, i2].
    await shelves.put(`/api/items/${i1}?status=draft`, { shelf: null });
    await shelves.put(`/api/items/${i1}?status=draft`, { shelf: s });
    expect(await items(s, 'draft')).toEqual([i2, i1]);
    expect(await items(s, 'published')).toEqual([i1, i2]);
    await shelves.put(`/api/shelves/${s}`, { name: 's again' });
    expect(await items(s, 'published')).toEqual([i2, i1]);
  });

  it('a row stored before positions were kept stays in its place (by id) when a write keeps its link', async () => {
    const s = await shelves.create('shelves', { name: 's' });
    const list = [];
    for (const title of ['i1', 'i2', 'i3']) list.push(await shelves.create('items', { title, shelf: s }));
    await shelves.put(`/api/shelves/${s}`, { items: [list[2]!, list[1]!, list[0]!] });
    await engine.updateMany('items', {}, { $unset: { _inverseOrder: '' } });
    await shelves.put(`/api/items/${list[0]}?status=draft`, { title: 'i1 edited' });
    expect(await items(s, 'draft')).toEqual(list);
    const i4 = await shelves.create('items', { title: 'i4', shelf: s }, '?status=draft');
    expect(await items(s, 'draft')).toEqual([...list, i4]);
  });
});
