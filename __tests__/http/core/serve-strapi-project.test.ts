import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createContentRouter, importStrapiExport, loadStrapiProject, type ContentRouter, type ContentRouterOptions } from '../../../lib';
import { createProjectApp } from '../../../lib/http/project-app';
import { mergeConfig } from '../../../lib/project/merge-config';
import { readExportLocales } from '../../../lib/transfer/read-locales';
import { createBlogApp } from '../../../examples/blog/app';
import { loadBlogModel } from '../../../examples/blog/model';
import { writeBlogStrapiProject } from '../../fixtures/blog-strapi-project';
import { testEngine } from '../../helpers/test-engine';
import { FIXTURE } from '../../transfer/transfer-helpers';

const model = loadBlogModel();
const token = model.permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;
const temp = (prefix: string): string => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
let project: Awaited<ReturnType<typeof loadStrapiProject>>;
let served: { app: ReturnType<typeof createProjectApp>['app']; router: ContentRouter };
let example: Awaited<ReturnType<typeof createBlogApp>>;

/**
 * What `--options` would give: what Strapi keeps in its database (the locales, the Public role's grants, API
 * tokens), as the example app has them. The export's versions in `de` (a locale Strapi's list does not have) are
 * left out of both, as the example app does not configure it.
 */
const jsonOptions = { i18n: { locales: model.permissions.locales.all, defaultLocale: model.permissions.locales.default }, auth: { public: { actions: model.permissions.public.actions }, apiTokens: model.permissions.apiTokens.map(({ name, type, accessKey }) => ({ name, type, accessKey })) }, logger: false };

beforeAll(async () => {
  const dir = writeBlogStrapiProject();
  project = await loadStrapiProject(dir);
  const { cors, ...options } = mergeConfig(project.options, jsonOptions, 'replace') as ContentRouterOptions;
  const router = createContentRouter({ ...options, engine: testEngine() });
  const { app, mount } = createProjectApp();
  mount(router, { prefix: project.prefix, uploadsDir: project.uploadsDir, cors, state: { importing: false } });
  await router.ready;
  await importStrapiExport(router, FIXTURE, { uploads: { directory: project.uploadsDir }, unconfiguredLocales: 'skip' });
  served = { app, router };
  example = await createBlogApp({ seed: false, engine: testEngine(), uploadsDir: temp('cr-example-uploads-') });
  await importStrapiExport(example.router, FIXTURE, { uploads: { directory: temp('cr-example-uploads-') }, unconfiguredLocales: 'skip' });
});

afterAll(async () => {
  await served?.router.engine.close();
  await example?.close();
  fs.rmSync(project.dir, { recursive: true, force: true });
});

describe('the blog laid out as a Strapi project, loaded by loadStrapiProject and served', () => {
  it.each([
    ['/api/articles'],
    ['/api/articles?populate=*&sort=title:asc'],
    ['/api/articles?locale=fr&sort[0]=title:asc&pagination[pageSize]=5'],
    ['/api/articles?filters[title][$containsi]=a&fields[0]=title&pagination[page]=2&pagination[pageSize]=3'],
    ['/api/categories?populate[articles][fields][0]=title&sort=name'],
    ['/api/global?populate=*'],
    ['/api/about?populate=*'],
    ['/api/authors'],
    ['/api/upload/files'],
    ['/api/articles?pagination[pageSize]=101'],
  ])('GET %s answers as the example app does', async (url) => {
    const [ours, theirs] = await Promise.all([request(served.app).get(url), request(example.app).get(url)]);
    expect({ status: ours.status, body: ours.body }).toEqual({ status: theirs.status, body: theirs.body });
  });

  it('with the API token of --options: the authors, populated, as the example app gives them', async () => {
    const url = '/api/authors?populate=*';
    const [ours, theirs] = await Promise.all([request(served.app).get(url).set('Authorization', `Bearer ${token}`), request(example.app).get(url).set('Authorization', `Bearer ${token}`)]);
    expect(ours.status).toBe(200);
    expect(ours.body).toEqual(theirs.body);
  });

  it('serves the imported files from public/uploads and Strapi\'s /_health', async () => {
    const [file] = fs.readdirSync(project.uploadsDir);
    expect((await request(served.app).get(`/uploads/${file}`)).status).toBe(200);
    expect((await request(served.app).get('/_health')).status).toBe(204);
  });

  it('answers cross-origin requests on every path as strapi::cors does (the project\'s plain \'strapi::cors\')', async () => {
    const preflight = await request(served.app).options('/api/articles').set('Origin', 'https://front.example').set('Access-Control-Request-Method', 'GET');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://front.example');
    const [file] = fs.readdirSync(project.uploadsDir);
    const upload = await request(served.app).get(`/uploads/${file}`).set('Origin', 'https://front.example');
    expect(upload.headers['access-control-allow-credentials']).toBe('true');
  });

  it('takes the locales of a strapi export: Strapi\'s list with names and default, then those documents are in', async () => {
    expect(await readExportLocales(FIXTURE)).toEqual({ locales: [{ code: 'en', name: 'English (en)' }, { code: 'fr', name: 'French (fr)' }, 'de'], defaultLocale: 'en' });
  });
});
