import type { ContentRouter } from '../../../lib';
import { createRelationsApp, ids, type Api, type Body } from '../../fixtures/relations-model';

let router: ContentRouter;
let http: Api;

beforeEach(async () => {
  ({ router, http } = await createRelationsApp());
});

describe('bidirectional relations', () => {
  it('manyToOne / oneToMany: connecting from either side is visible from the other', async () => {
    const w1 = await http.create('writers', { name: 'w1' });
    const p1 = await http.create('posts', { title: 'p1', writer: w1 });
    const p2 = await http.create('posts', { title: 'p2' });
    expect(await http.related(`/api/writers/${w1}?populate=posts`, 'posts')).toEqual([p1]);
    await http.put(`/api/writers/${w1}`, { posts: { connect: [p2] } });
    expect(await http.related(`/api/posts/${p2}?populate=writer`, 'writer')).toBe(w1);
    expect(await http.related(`/api/writers/${w1}?populate=posts`, 'posts')).toEqual([p1, p2]);
    await http.put(`/api/writers/${w1}`, { posts: { disconnect: [p1] } });
    expect(await http.related(`/api/posts/${p1}?populate=writer`, 'writer')).toBeNull();
  });

  it('manyToMany: both sides', async () => {
    const [a, b] = [await http.create('tags', { name: 'a' }), await http.create('tags', { name: 'b' })];
    const p1 = await http.create('posts', { title: 'p1', tags: [a] });
    const p2 = await http.create('posts', { title: 'p2' });
    await http.put(`/api/tags/${b}`, { posts: [p1, p2] });
    expect(await http.related(`/api/posts/${p1}?populate=tags`, 'tags')).toEqual([a, b]);
    expect(await http.related(`/api/posts/${p2}?populate=tags`, 'tags')).toEqual([b]);
    expect(await http.related(`/api/tags/${b}?populate=posts`, 'posts')).toEqual([p1, p2]);
    await http.put(`/api/tags/${b}`, { posts: { set: [p2] } });
    expect(await http.related(`/api/posts/${p1}?populate=tags`, 'tags')).toEqual([a]);
  });

  it('oneToOne: a target taken by a new owner leaves its previous owner', async () => {
    const pr = await http.create('profiles', { bio: 'x' });
    const w1 = await http.create('writers', { name: 'w1', profile: pr });
    expect(await http.related(`/api/profiles/${pr}?populate=writer`, 'writer')).toBe(w1);
    const w2 = await http.create('writers', { name: 'w2', profile: pr });
    expect(await http.related(`/api/writers/${w1}?populate=profile`, 'profile')).toBeNull();
    expect(await http.related(`/api/profiles/${pr}?populate=writer`, 'writer')).toBe(w2);
    const pr2 = await http.create('profiles', { bio: 'y' });
    await http.put(`/api/profiles/${pr2}`, { writer: w2 });
    expect(await http.related(`/api/writers/${w2}?populate=profile`, 'profile')).toBe(pr2);
    expect(await http.related(`/api/profiles/${pr}?populate=writer`, 'writer')).toBeNull();
  });

  it('oneToMany owning side: a target taken by a new owner leaves the previous one', async () => {
    const [b1, b2] = [await http.create('books', { title: 'b1' }), await http.create('books', { title: 'b2' })];
    const w1 = await http.create('writers', { name: 'w1', books: [b1, b2] });
    const w2 = await http.create('writers', { name: 'w2', books: { connect: [b2] } });
    expect(await http.related(`/api/writers/${w1}?populate=books`, 'books')).toEqual([b1]);
    expect(await http.related(`/api/books/${b2}?populate=owner`, 'owner')).toBe(w2);
    await http.put(`/api/books/${b1}`, { owner: w2 });
    expect(await http.related(`/api/writers/${w1}?populate=books`, 'books')).toEqual([]);
    expect(await http.related(`/api/writers/${w2}?populate=books`, 'books')).toEqual([b2, b1]);
  });

  it('self relation parent / children', async () => {
    const root = await http.create('tags', { name: 'root' });
    const c1 = await http.create('tags', { name: 'c1', parent: root });
    const c2 = await http.create('tags', { name: 'c2' });
    await http.put(`/api/tags/${root}`, { children: { connect: [c2] } });
    expect(await http.related(`/api/tags/${root}?populate=children`, 'children')).toEqual([c1, c2]);
    expect(await http.related(`/api/tags/${c2}?populate=parent`, 'parent')).toBe(root);
    const sub = await http.create('tags', { name: 'sub', children: [c1] });
    expect(await http.related(`/api/tags/${c1}?populate=parent`, 'parent')).toBe(sub);
    expect(await http.related(`/api/tags/${root}?populate=children`, 'children')).toEqual([c2]);
  });
});

describe('one-way relations', () => {
  it('oneWay and manyWay keep order and allow shared targets', async () => {
    const [b1, b2] = [await http.create('books', { title: 'b1' }), await http.create('books', { title: 'b2' })];
    const tag = await http.create('tags', { name: 't' });
    const p1 = await http.create('posts', { title: 'p1', pinned: tag, shelf: [b2, b1] });
    const p2 = await http.create('posts', { title: 'p2', pinned: tag, shelf: [b1] });
    expect(await http.related(`/api/posts/${p1}?populate=shelf`, 'shelf')).toEqual([b2, b1]);
    expect(await http.related(`/api/posts/${p1}?populate=pinned`, 'pinned')).toBe(tag);
    expect(await http.related(`/api/posts/${p2}?populate=pinned`, 'pinned')).toBe(tag);
  });
});

describe('deleting a document removes it from every relation', () => {
  it('owning to-one, to-many, one-way, self and component relations', async () => {
    const w = await http.create('writers', { name: 'w' });
    const tag = await http.create('tags', { name: 'gone' });
    const keep = await http.create('tags', { name: 'keep' });
    const child = await http.create('tags', { name: 'child', parent: tag });
    const book = await http.create('books', { title: 'b' });
    const post = await http.create('posts', {
      title: 'p', writer: w, tags: [tag, keep], pinned: tag, shelf: [book], links: [{ label: 'l', tag }, { label: 'k', tag: keep }],
    });
    await http.del(`/api/tags/${tag}`);
    await http.del(`/api/writers/${w}`);
    await http.del(`/api/books/${book}`);
    for (const status of ['published', 'draft']) {
      const doc = (await http.get(`/api/posts/${post}?status=${status}&populate[writer]=true&populate[tags]=true&populate[pinned]=true&populate[shelf]=true&populate[links][populate]=tag`)).data as Body;
      expect(ids(doc.writer)).toBeNull();
      expect(ids(doc.tags)).toEqual([keep]);
      expect(ids(doc.pinned)).toBeNull();
      expect(ids(doc.shelf)).toEqual([]);
      expect((doc.links as Body[]).map((l) => ids(l.tag))).toEqual([null, keep]);
    }
    expect(await http.related(`/api/tags/${child}?populate=parent`, 'parent')).toBeNull();
    // The stored rows no longer hold the deleted documentIds (not just hidden by populate).
    for (const row of await router.engine.find('posts', { documentId: post })) {
      expect(row).toMatchObject({ writer: null, tags: [keep], pinned: null, shelf: [] });
      expect((row.links as Body[]).map((l) => l.tag)).toEqual([null, keep]);
    }
    expect((await router.engine.find('tags', { documentId: child }))[0]).toMatchObject({ parent: null });
  });
});

describe('relations inside components', () => {
  it('take every payload form and are checked', async () => {
    const [a, b] = [await http.create('tags', { name: 'a' }), await http.create('tags', { name: 'b' })];
    const post = await http.create('posts', { title: 'p', links: [{ label: 'x', tag: a }, { label: 'y', tag: { connect: [{ documentId: b }] } }] });
    const doc = (await http.get(`/api/posts/${post}?populate[links][populate]=tag`)).data as { links: Body[] };
    expect(doc.links.map((l) => ids(l.tag))).toEqual([a, b]);
    const res = await http.put(`/api/posts/${post}`, { links: [{ label: 'z', tag: 'ghost' }] }, 400);
    expect((res.error as Body).message).toContain('"ghost"');
  });
});

describe('relation order', () => {
  it('the mappedBy side lists by the owners, the owning side by the stored array', async () => {
    const tag = await http.create('tags', { name: 't' });
    const p = [];
    for (const title of ['p1', 'p2', 'p3']) p.push(await http.create('posts', { title, tags: [tag] }));
    expect(await http.related(`/api/tags/${tag}?populate=posts`, 'posts')).toEqual(p);
    const other = await http.create('tags', { name: 'o' });
    await http.put(`/api/posts/${p[0]}`, { tags: { connect: [{ documentId: other, position: { start: true } }] } });
    expect(await http.related(`/api/posts/${p[0]}?populate=tags`, 'tags')).toEqual([other, tag]);
  });
});
