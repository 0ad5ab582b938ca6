import type express from 'express';
import request from 'supertest';
import { api, createRelationsApp, ids } from '../../fixtures/relations-model';

let app: express.Express;
let http: ReturnType<typeof api>;

beforeEach(async () => {
  ({ app } = await createRelationsApp());
  http = api(app);
});

describe('concurrent writes', () => {
  it('two concurrent PUTs connecting different targets to one to-many relation keep both', async () => {
    const tags: string[] = [];
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) tags.push(await http.create('tags', { name }));
    const post = await http.create('posts', { title: 'p' });
    const results = await Promise.all(tags.map((t) => request(app).put(`/api/posts/${post}`).send({ data: { tags: { connect: [t] } } })));
    expect(results.map((r) => r.status)).toEqual(tags.map(() => 200));
    for (const status of ['published', 'draft']) {
      const connected = ids(((await http.get(`/api/posts/${post}?populate=tags&status=${status}`)).data as { tags: unknown }).tags) as string[];
      expect([...connected].sort()).toEqual([...tags].sort());
    }
  });

  it('concurrent connects from the mappedBy side keep both', async () => {
    const writer = await http.create('writers', { name: 'w' });
    const posts: string[] = [];
    for (const title of ['p1', 'p2', 'p3', 'p4']) posts.push(await http.create('posts', { title }));
    await Promise.all(posts.map((p) => request(app).put(`/api/writers/${writer}`).send({ data: { posts: { connect: [p] } } })));
    const connected = ids(((await http.get(`/api/writers/${writer}?populate=posts`)).data as { posts: unknown }).posts) as string[];
    expect([...connected].sort()).toEqual([...posts].sort());
  });

  it('two concurrent creates with the same unique value: exactly one succeeds', async () => {
    const results = await Promise.all([0, 1, 2].map(() => request(app).post('/api/tags').send({ data: { name: 'same' } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400]);
    const failed = results.find((r) => r.status === 400)!;
    expect(failed.body.error.message).toBe('This attribute must be unique');
    expect(((await http.get('/api/tags')).data as unknown[]).length).toBe(1);
  });

  it('concurrent creates of a D&P type with the same unique value: one published document', async () => {
    const results = await Promise.all([0, 1].map(() => request(app).post('/api/posts').send({ data: { title: 't', slug: 'same' } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(((await http.get('/api/posts')).data as unknown[]).length).toBe(1);
    expect(((await http.get('/api/posts?status=draft')).data as unknown[]).length).toBe(1);
  });
});
