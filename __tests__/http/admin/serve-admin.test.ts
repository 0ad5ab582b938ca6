import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createContentRouter, loadStrapiProject, type ContentRouterOptions } from '../../../lib';
import { runServe } from '../../../lib/cli/serve';
import { DEFAULT_ADMIN_DIR } from '../../../lib/http/create-admin';
import { createProjectApp } from '../../../lib/http/project-app';
import { mergeConfig } from '../../../lib/project/merge-config';
import { loadBlogModel } from '../../../examples/blog/model';
import { writeBlogStrapiProject } from '../../fixtures/blog-strapi-project';
import { testEngine } from '../../helpers/test-engine';

/**
 * `content-router serve <project> --admin` (docs/strapi-projects.md): the built-in admin at /admin, on a Strapi
 * project's own model, where Strapi has its admin.
 */
const model = loadBlogModel();
const FULL = model.permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;
let dir: string;
beforeAll(() => {
  dir = writeBlogStrapiProject();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('serve --admin', () => {
  it('mounts the admin at /admin, reading the API at the project\'s prefix', async () => {
    const assetsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cr-serve-admin-'));
    fs.writeFileSync(path.join(assetsDir, 'index.html'), '<html><head></head><body>admin</body></html>');
    const project = await loadStrapiProject(dir);
    const { cors, ...options } = mergeConfig(project.options, { auth: { apiTokens: [{ name: 'full', type: 'full-access', accessKey: FULL }] }, logger: false }, 'replace') as ContentRouterOptions;
    const router = createContentRouter({ ...options, engine: testEngine() });
    const { app, mount } = createProjectApp();
    mount(router, { prefix: project.prefix, uploadsDir: project.uploadsDir, cors, state: { importing: false }, admin: { assetsDir } });
    await router.ready;
    try {
      expect((await request(app).get('/admin/').expect(200)).text).toContain('<base href="/admin/">');
      expect((await request(app).get('/admin/config.json').expect(200)).body).toEqual({ apiUrl: project.prefix });
      const described = await request(app).get(`${project.prefix}/content-router/model`).set('Authorization', `Bearer ${FULL}`).expect(200);
      expect(described.body.data.contentTypes.map((ct: { uid: string }) => ct.uid)).toEqual(expect.arrayContaining(['api::article.article', 'api::global.global']));
    } finally {
      await router.engine.close();
    }
  });

  (fs.existsSync(path.join(DEFAULT_ADMIN_DIR, 'index.html')) ? it.skip : it)('without a build, stops at once saying to run npm run build (exit 1)', async () => {
    const out: string[] = [];
    const saved = process.env.PORT;
    process.env.PORT = '0';
    try {
      const code = await runServe([dir, '--admin'], { stdout: (t) => void out.push(t), stderr: (t) => void out.push(t) });
      expect(code).toBe(1);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
    expect(out.join('')).toMatch(/CR_ADMIN_NOT_BUILT: .*npm run build/);
  });

  it('lists --admin in its usage', async () => {
    const out: string[] = [];
    expect(await runServe(['--help'], { stdout: (t) => void out.push(t), stderr: (t) => void out.push(t) })).toBe(0);
    expect(out.join('')).toContain('--admin     the built-in admin at /admin');
  });
});
