import type express from 'express';
import type { ContentRouter } from '../../../lib';
import { api, createRelationsApp } from '../../fixtures/relations-model';

let app: express.Express;
let router: ContentRouter;
let http: ReturnType<typeof api>;

const file = (id: number, mime: string) => ({
  id, documentId: `file${id}`, name: `f${id}`, mime, url: `/uploads/f${id}`, locale: null, _status: 'published',
  createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z', publishedAt: '2024-01-01T00:00:00.000Z',
});

beforeEach(async () => {
  ({ app, router } = await createRelationsApp());
  http = api(app);
  await router.engine.insertMany('files', [file(1, 'image/png'), file(2, 'application/pdf'), file(3, 'video/mp4')]);
});

describe('media allowedTypes', () => {
  it('accepts files of an allowed type (single and multiple)', async () => {
    const doc = await http.create('posts', { title: 'p', cover: 1, gallery: [3, 1] });
    const data = (await http.get(`/api/posts/${doc}?populate=*`)).data as { cover: { id: number }; gallery: { id: number }[] };
    expect(data.cover.id).toBe(1);
    expect(data.gallery.map((g) => g.id)).toEqual([3, 1]);
  });

  it('rejects a file of another type with a 400 naming the attribute, and writes nothing', async () => {
    const res = await http.post('/api/posts', { title: 'p', cover: 2 }, 400);
    const error = res.error as { name: string; message: string; details: { errors: { path: string[]; value: unknown }[] } };
    expect(error.name).toBe('ValidationError');
    expect(error.message).toBe('File 2 (application/pdf) is not allowed in cover: allowed types are images');
    expect(error.details.errors).toEqual([expect.objectContaining({ path: ['cover'], value: 2 })]);
    expect((await http.get('/api/posts?status=draft')).data).toEqual([]);
    const doc = await http.create('posts', { title: 'p', gallery: [1] });
    const bad = await http.put(`/api/posts/${doc}`, { gallery: [1, 2] }, 400);
    expect((bad.error as { message: string }).message).toContain('gallery');
  });

  it('an unknown file id keeps Strapi\'s message', async () => {
    const res = await http.post('/api/posts', { title: 'p', cover: 99 }, 400);
    expect((res.error as { message: string }).message).toBe('1 relation(s) of type plugin::upload.file associated with this entity do not exist');
  });
});
