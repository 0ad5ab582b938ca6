import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { ConfigurationError, createAdmin, createContentRouter, memoryEngine, type ContentRouter } from '../../../lib';

/**
 * `createAdmin(router, options)` serves a built single-page app (docs/admin.md). The build is written by the test in
 * a temporary `assetsDir`: an index.html, a hashed asset, a file beside them, and a secret next to the folder that
 * no path may reach.
 */
const INDEX = '<!doctype html><html><head><meta charset="utf-8"><script type="module" src="./assets/index-3f2a9c.js"></script></head><body><div id="root"></div></body></html>';
const ASSET = 'console.log("admin");';

function writeBuild(): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cr-admin-'));
  const dir = path.join(parent, 'admin');
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets', 'index-3f2a9c.js'), ASSET);
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(dir, '.env'), 'HIDDEN=1');
  fs.writeFileSync(path.join(parent, 'secret.txt'), 'TOP SECRET');
  return dir;
}

function contentRouter(): ContentRouter {
  return createContentRouter({ contentTypes: [], engine: memoryEngine({ ephemeral: true }), logger: false });
}

describe('createAdmin', () => {
  const assetsDir = writeBuild();
  const router = contentRouter();
  const app = express();
  app.use('/cms-api', router);
  app.use('/admin', createAdmin(router, { assetsDir }));
  app.use((_req, res) => void res.status(404).send('host 404'));

  it('serves index.html at the mount point, no-cache, with a <base> at the mount point', async () => {
    const res = await request(app).get('/admin/').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toContain('<head><base href="/admin/"><meta charset="utf-8">');
    expect(res.text).toContain('src="./assets/index-3f2a9c.js"');
  });

  it('redirects the mount point without its slash (relative URLs would resolve against /)', async () => {
    const res = await request(app).get('/admin').expect(301);
    expect(res.headers.location).toBe('/admin/');
  });

  it('answers index.html for client-side routes, not for unknown files', async () => {
    const route = await request(app).get('/admin/articles/abc123/edit').expect(200);
    expect(route.text).toContain('<base href="/admin/">');
    expect(route.headers['cache-control']).toBe('no-cache');
    expect((await request(app).get('/admin/assets/missing-123.js').expect(404)).text).toBe('host 404');
    expect((await request(app).get('/admin/missing.png').expect(404)).text).toBe('host 404');
  });

  it('serves hashed assets immutable for a year, other files revalidated', async () => {
    const asset = await request(app).get('/admin/assets/index-3f2a9c.js').expect(200);
    expect(asset.text).toBe(ASSET);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await request(app).get('/admin/favicon.svg').expect(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('config.json: the path the app mounts the router at, or the apiUrl option', async () => {
    const res = await request(app).get('/admin/config.json').expect(200);
    expect(res.body).toEqual({ apiUrl: '/cms-api' });
    expect(res.headers['cache-control']).toBe('no-cache');
    const other = express().use('/admin', createAdmin(router, { assetsDir, apiUrl: 'https://api.example.com/api' }));
    expect((await request(other).get('/admin/config.json').expect(200)).body).toEqual({ apiUrl: 'https://api.example.com/api' });
    const elsewhere = express().use('/admin', createAdmin(contentRouter(), { assetsDir }));
    expect((await request(elsewhere).get('/admin/config.json').expect(200)).body).toEqual({ apiUrl: '/api' });
  });

  it.each([
    '/admin/../secret.txt',
    '/admin/%2e%2e/secret.txt',
    '/admin/assets/%2e%2e/%2e%2e/secret.txt',
    '/admin/..%2fsecret.txt',
    '/admin/%2e%2e%2fsecret.txt',
    '/admin/.env',
    '/admin/assets/..%5c..%5csecret.txt',
    '/admin/%',
    '/admin/assets/%zz.js',
    '/admin/%00.html',
    `/admin/${'a/'.repeat(2000)}x`,
  ])('never serves a file outside the build, nor a dot file: %s', async (url) => {
    const res = await request(app).get(url);
    expect(res.text).not.toContain('TOP SECRET');
    expect(res.text).not.toContain('HIDDEN');
    expect(res.status).not.toBe(500);
  });

  it('leaves other methods to the host', async () => {
    expect((await request(app).post('/admin/config.json').expect(404)).text).toBe('host 404');
  });

  it('refuses to start without a build, saying how to make one', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'cr-admin-empty-'));
    let error: unknown;
    try {
      createAdmin(router, { assetsDir: empty });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).code).toBe('CR_ADMIN_NOT_BUILT');
    expect((error as Error).message).toContain('npm run build');
    expect((error as Error).message).toContain(path.join(empty, 'index.html'));
  });

  it.each([
    [{ apiUrl: 'api' }, 'options.apiUrl'],
    [{ assetDir: '/tmp' }, 'options.assetDir: unknown option'],
  ])('refuses the option %j', (options, message) => {
    expect(() => createAdmin(router, options as never)).toThrow(message);
  });

  it('refuses anything but a content router', () => {
    expect(() => createAdmin(express.Router() as never, { assetsDir })).toThrow('the router createContentRouter returned');
  });
});
