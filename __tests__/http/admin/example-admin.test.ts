import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createBlogApp } from '../../../examples/blog/app';
import { createEditor } from '../../../examples/blog/create-editor';
import { loadBlogModel } from '../../../examples/blog/model';
import { testEngine } from '../../helpers/test-engine';

/**
 * The example app (`npm start`) serves the admin at /admin and has an "Editor" role for it: `npm run admin:editor`
 * (createEditor) makes a user of it over the API, who may edit and publish the blog but not delete (the issue's
 * "a role without delete sees no delete button": the model endpoint says so, and the API refuses).
 */
const FULL = loadBlogModel().permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;

describe('examples/blog: the admin and its Editor role', () => {
  let blog: Awaited<ReturnType<typeof createBlogApp>>;
  let server: Server;
  let api: string;
  const adminDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cr-example-admin-'));
  fs.writeFileSync(path.join(adminDir, 'index.html'), '<!doctype html><html><head><title>admin</title></head><body></body></html>');

  beforeAll(async () => {
    blog = await createBlogApp({ engine: testEngine(), adminDir });
    server = blog.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await blog.close();
  });

  it('serves the admin at /admin, its config pointing at /api', async () => {
    const page = await request(blog.app).get('/admin/').expect(200);
    expect(page.text).toContain('<base href="/admin/">');
    expect((await request(blog.app).get('/admin/config.json').expect(200)).body).toEqual({ apiUrl: '/api' });
  });

  it('npm run admin:editor makes an editor who may edit and publish, not delete', async () => {
    const editor = await createEditor(api, FULL, { username: 'ada', email: 'ada@example.com' });
    expect(editor.password.length).toBeGreaterThanOrEqual(20);
    const login = await request(blog.app).post('/api/auth/local').send({ identifier: 'ada', password: editor.password }).expect(200);
    const auth = { authorization: `Bearer ${login.body.jwt as string}` };

    const model = (await request(blog.app).get('/api/content-router/model').set(auth).expect(200)).body.data;
    expect(model.caller).toMatchObject({ kind: 'user', username: 'ada', role: { name: 'Editor', type: 'editor' } });
    const byUid = Object.fromEntries((model.contentTypes as { uid: string; permissions: unknown }[]).map((ct) => [ct.uid, ct.permissions]));
    expect(Object.keys(byUid).sort()).toEqual(['api::article.article', 'api::author.author', 'api::category.category', 'api::global.global']);
    expect(byUid['api::article.article']).toEqual({ find: true, findOne: true, create: true, update: true, delete: false, publish: true, readDrafts: true });
    expect(model.media).toEqual({ find: true, findOne: true, upload: true, update: true, destroy: false });

    const drafts = await request(blog.app).get('/api/articles?status=draft').set(auth).expect(200);
    const documentId = drafts.body.data[0].documentId as string;
    await request(blog.app).put(`/api/articles/${documentId}?status=published`).set(auth).send({ data: { title: 'Edited by an editor' } }).expect(200);
    await request(blog.app).delete(`/api/articles/${documentId}`).set(auth).expect(403);
  });

  it('the same name twice is refused with the API\'s message', async () => {
    await createEditor(api, FULL, { username: 'bob', email: 'bob@example.com' });
    await expect(createEditor(api, FULL, { username: 'bob', email: 'bob2@example.com' })).rejects.toThrow('Username already taken');
  });

  it('without a build, /admin says how to make one (the example still starts)', async () => {
    const bare = await createBlogApp({ engine: testEngine(), seed: false, adminDir: path.join(adminDir, 'missing') });
    try {
      const res = await request(bare.app).get('/admin/').expect(503);
      expect(res.text).toContain('npm run build');
    } finally {
      await bare.close();
    }
  });
});
