// The built-in admin (dist/admin) in a real browser: Debian's chromium driven by playwright-core (browser
// downloads do not work here; CHROMIUM_PATH moves it). `npm run e2e:admin` builds the admin first. The server is
// admin/e2e/test-server.ts: the blog example app with the admin at /admin and two roles made through the REST
// API, Editor (everything) and Author (no delete). Every change made in the browser is checked through the REST
// API with the full-access token. Screenshots go to docs/images/admin-builtin-*.png (docs/admin.md shows them).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import sharp from 'sharp';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const shots = path.join(repoRoot, 'docs/images');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'Password-1234';

let server;
let baseUrl;
let token;
let browser;
let page;
/** Uncaught errors and console errors of the page: the last test expects none. */
const browserErrors = [];
/** Failed requests of the page (status, method, path): the last test expects only the deliberate ones. */
const failedRequests = [];

async function rest(pathAndQuery, init = {}) {
  const res = await fetch(`${baseUrl}/api${pathAndQuery}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Retries `check` (an async assertion) until it passes: the browser's writes land a little after the clicks. */
async function eventually(check, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
}

async function png(color) {
  return sharp({ create: { width: 16, height: 12, channels: 3, background: color } }).png().toBuffer();
}

async function logIn(username) {
  await page.goto(`${baseUrl}/admin/#/login`);
  await page.getByLabel(/^Username or e-mail/).fill(username);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('menuitem', { name: 'Article' }).waitFor();
}

async function logOut() {
  await page.getByRole('button', { name: 'Profile' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.getByLabel(/^Username or e-mail/).waitFor();
}

before(async () => {
  server = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(here, 'test-server.ts')], {
    cwd: repoRoot,
    env: { ...process.env, TS_NODE_PROJECT: path.join(repoRoot, 'tsconfig.json') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await new Promise((resolve, reject) => {
    // The app logs its start-up summary first; the server's own line is the JSON one.
    readline.createInterface({ input: server.stdout }).on('line', (line) => line.startsWith('{"url"') && resolve(line));
    server.once('exit', (code) => reject(new Error(`the test server exited (${code})`)));
  });
  ({ url: baseUrl, token } = JSON.parse(first));

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // This machine's network is closed: without these, chromium keeps trying to reach Google's services.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => browserErrors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) browserErrors.push(`console error: ${message.text()}`);
  });
  page.on('response', async (response) => {
    if (response.status() >= 400) failedRequests.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname} ${(await response.text().catch(() => '')).slice(0, 300)}`);
  });
});

after(async () => {
  if (process.env.E2E_FAIL_SHOT) await page?.screenshot({ path: process.env.E2E_FAIL_SHOT, fullPage: true }).catch(() => undefined);
  await browser?.close();
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
});

test('an editor logs in and lists articles: search, status, columns', async () => {
  await page.goto(`${baseUrl}/admin/`);
  await page.getByLabel(/^Username or e-mail/).waitFor();
  await page.screenshot({ path: path.join(shots, 'admin-builtin-login.png'), animations: 'disabled' });
  await logIn('editor');
  // Every content type of the model, and the media library.
  for (const name of ['About', 'Article', 'Author', 'Category', 'Global', 'Media library']) await page.getByRole('menuitem', { name }).waitFor();

  await page.getByRole('menuitem', { name: 'Article' }).click();
  await page.getByText('1-3 of 3').waitFor();
  await page.getByPlaceholder('Search').fill('hello');
  await page.getByText('1-1 of 1').waitFor();
  await page.getByPlaceholder('Search').fill('');
  await page.getByText('1-3 of 3').waitFor();
  // The published view: the draft nobody published is not in it.
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Published' }).click();
  await page.getByText('1-2 of 2').waitFor();
  assert.equal(await page.getByRole('cell', { name: 'A draft nobody sees' }).count(), 0);
  await page.screenshot({ path: path.join(shots, 'admin-builtin-list.png'), animations: 'disabled' });
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Draft' }).click();
  await page.getByText('1-3 of 3').waitFor();
});

test('an article created, refused, edited, published, unpublished and deleted, seen through the REST API', async () => {
  await page.goto(`${baseUrl}/admin/#/articles/create`);
  await page.getByLabel('title', { exact: true }).fill('Written in the admin');
  // The uid follows its target field while it was not typed (Strapi's admin's slug).
  assert.equal(await page.getByLabel('slug', { exact: true }).inputValue(), 'written-in-the-admin');
  await page.getByLabel('description', { exact: true }).fill('Created by the browser test.');
  await page.getByLabel('content (blocks JSON)').fill(JSON.stringify([{ type: 'paragraph', children: [{ type: 'text', text: 'Hello blocks' }] }]));
  await page.getByLabel('views', { exact: true }).fill('7');
  await page.getByLabel('rating', { exact: true }).fill('4.5');
  await page.getByLabel('featured', { exact: true }).check();
  await page.getByLabel('publishDate', { exact: true }).fill('2026-11-20');
  // A cover uploaded from the form, two gallery images uploaded at once.
  await page.getByLabel('Upload to cover').setInputFiles([{ name: 'cover-red.png', mimeType: 'image/png', buffer: await png('#d33') }]);
  await page.getByText('cover-red.png').waitFor();
  await page.getByLabel('Upload to gallery').setInputFiles([
    { name: 'one.png', mimeType: 'image/png', buffer: await png('#3d3') },
    { name: 'two.png', mimeType: 'image/png', buffer: await png('#33d') },
  ]);
  await page.getByText('two.png').waitFor();
  await page.getByRole('button', { name: 'Move two.png up' }).click(); // the gallery's order: two, one
  // Relations: the author (to-one) and two categories (to-many, in the order picked) from searchable selects.
  await page.getByLabel('author', { exact: true }).fill('Ann');
  await page.getByRole('option', { name: 'Ann Archer' }).click();
  await page.getByLabel('categories', { exact: true }).fill('We');
  await page.getByRole('option', { name: 'Web' }).click();
  await page.getByLabel('categories', { exact: true }).fill('Sci');
  await page.getByRole('option', { name: 'Science' }).click();
  // A component and a dynamic zone entry.
  await page.getByLabel('metaTitle', { exact: true }).fill('Written in the admin');
  await page.getByRole('button', { name: 'Add to blocks' }).click();
  await page.getByRole('menuitem', { name: /^Quote/ }).click();
  await page.getByLabel('body', { exact: true }).fill('A quote in a dynamic zone');

  // Refused: the slug of another article. Strapi's 400 shows under the field it names; nothing is written.
  await page.getByLabel('slug', { exact: true }).fill('hello-content-router');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.getByText('This attribute must be unique').waitFor();
  assert.equal((await rest('/articles?status=draft&filters[title][$eq]=Written in the admin')).body.data.length, 0);

  await page.getByRole('button', { name: 'Generate slug from title' }).click();
  assert.equal(await page.getByLabel('slug', { exact: true }).inputValue(), 'written-in-the-admin');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.waitForURL(/#\/articles\/(?!create)[^/]+$/);
  const documentId = decodeURIComponent(page.url().split('/').pop());

  const populate = 'populate[cover]=true&populate[gallery]=true&populate[author]=true&populate[categories]=true&populate[seo]=true&populate[blocks]=true';
  const draft = await eventually(async () => {
    const answer = await rest(`/articles/${documentId}?status=draft&${populate}`);
    assert.equal(answer.status, 200);
    return answer.body.data;
  });
  assert.equal(draft.title, 'Written in the admin');
  assert.equal(draft.slug, 'written-in-the-admin');
  assert.equal(draft.views, 7);
  assert.equal(Number(draft.rating), 4.5);
  assert.equal(draft.featured, true);
  assert.equal(draft.publishDate, '2026-11-20');
  assert.deepEqual(draft.content, [{ type: 'paragraph', children: [{ type: 'text', text: 'Hello blocks' }] }]);
  assert.equal(draft.cover.name, 'cover-red.png');
  assert.deepEqual(draft.gallery.map((f) => f.name), ['two.png', 'one.png']);
  assert.equal(draft.author.name, 'Ann Archer');
  assert.deepEqual(draft.categories.map((c) => c.name), ['Web', 'Science']);
  assert.equal(draft.seo.metaTitle, 'Written in the admin');
  assert.deepEqual(draft.blocks.map((b) => [b.__component, b.body]), [['shared.quote', 'A quote in a dynamic zone']]);
  assert.equal((await rest(`/articles/${documentId}`)).status, 404); // a draft only

  // Edit after a reload (the form reads back what was saved), then publish.
  await page.reload();
  const title = page.locator('input[name="title"]'); // the quote of the dynamic zone has a title too
  await title.waitFor();
  assert.equal(await title.inputValue(), 'Written in the admin');
  assert.equal(await page.locator('input[name="blocks.0.body"], textarea[name="blocks.0.body"]').first().inputValue(), 'A quote in a dynamic zone');
  await title.fill('Edited in the admin');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await page.getByRole('button', { name: 'Unpublish' }).waitFor();
  const published = await rest(`/articles/${documentId}?${populate}`);
  assert.equal(published.status, 200);
  assert.equal(published.body.data.title, 'Edited in the admin');
  assert.deepEqual(published.body.data.categories.map((c) => c.name), ['Web', 'Science']);
  await page.evaluate(() => document.activeElement?.blur());
  await page.setViewportSize({ width: 1280, height: 2200 }); // the whole form
  await page.mouse.move(1270, 2190);
  await page.waitForTimeout(300); // MUI's focus transitions
  await page.screenshot({ path: path.join(shots, 'admin-builtin-edit.png'), animations: 'disabled' });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Unpublish: the published version goes, the draft stays.
  await page.getByRole('button', { name: 'Unpublish' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await eventually(async () => assert.equal((await rest(`/articles/${documentId}`)).status, 404));
  assert.equal((await rest(`/articles/${documentId}?status=draft`)).body.data.title, 'Edited in the admin');

  // Delete (both versions).
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.waitForURL(/#\/articles$/);
  await eventually(async () => assert.equal((await rest(`/articles/${documentId}?status=draft`)).status, 404));
});

test('a localization created from another locale, and a single type edited', async () => {
  const list = await rest('/articles?status=draft&filters[slug][$eq]=populate-one-round-trip');
  const documentId = list.body.data[0].documentId;
  assert.equal((await rest(`/articles/${documentId}?status=draft&locale=fr`)).status, 404);
  await page.goto(`${baseUrl}/admin/#/articles/${documentId}`);
  await page.getByLabel('title', { exact: true }).waitFor();
  await page.getByRole('combobox', { name: 'Content locale' }).click();
  await page.getByRole('option', { name: 'French (fr)' }).click();
  await page.getByText('has no fr version yet').waitFor();
  await page.getByRole('combobox', { name: 'Fill in from locale' }).click();
  await page.getByRole('option', { name: 'English (en)' }).click();
  await eventually(async () => assert.equal(await page.getByLabel('title', { exact: true }).inputValue(), 'Populate in one round trip'));
  await page.getByLabel('title', { exact: true }).fill('Tout peupler en un aller-retour');
  await page.getByRole('button', { name: 'Save draft' }).click();
  const fr = await eventually(async () => {
    const answer = await rest(`/articles/${documentId}?status=draft&locale=fr`);
    assert.equal(answer.status, 200);
    return answer.body.data;
  });
  assert.equal(fr.title, 'Tout peupler en un aller-retour');
  assert.equal((await rest(`/articles/${documentId}?status=draft&locale=en`)).body.data.title, 'Populate in one round trip');
  await page.getByRole('combobox', { name: 'Content locale' }).click();
  await page.getByRole('option', { name: 'English (en)' }).click();

  // The global single type: one edit page.
  await page.getByRole('menuitem', { name: 'Global' }).click();
  await page.getByLabel('siteName', { exact: true }).waitFor();
  await eventually(async () => assert.equal(await page.getByLabel('siteName', { exact: true }).inputValue(), 'content-router demo'));
  await page.getByLabel('siteDescription', { exact: true }).fill('Edited in the built-in admin');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await eventually(async () => assert.equal((await rest('/global')).body.data.siteDescription, 'Edited in the built-in admin'));
});

test('the media library: several files uploaded, one described, one deleted', async () => {
  await page.getByRole('menuitem', { name: 'Media library' }).click();
  await page.getByLabel('Files to upload').setInputFiles([
    { name: 'library-a.png', mimeType: 'image/png', buffer: await png('#a3a') },
    { name: 'library-b.png', mimeType: 'image/png', buffer: await png('#3aa') },
  ]);
  await page.getByText('library-b.png').waitFor();
  await page.getByRole('link', { name: 'Edit library-a.png' }).click();
  await page.getByLabel('Alternative text').fill('A purple square');
  await page.getByLabel('Caption').fill('Uploaded by the test');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('library-b.png').waitFor();
  const files = (await rest('/upload/files?filters[name][$startsWith]=library-')).body;
  const a = files.find((f) => f.name === 'library-a.png');
  assert.equal(a.alternativeText, 'A purple square');
  assert.equal(a.caption, 'Uploaded by the test');
  await page.screenshot({ path: path.join(shots, 'admin-builtin-media.png'), animations: 'disabled' });
  await page.getByRole('button', { name: 'Delete library-b.png' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await eventually(async () => assert.deepEqual((await rest('/upload/files?filters[name][$startsWith]=library-')).body.map((f) => f.name), ['library-a.png']));
});

test('a role without delete is offered no delete button', async () => {
  await logOut();
  await logIn('author');
  const list = await rest('/articles?status=draft&filters[slug][$eq]=hello-content-router');
  await page.goto(`${baseUrl}/admin/#/articles/${list.body.data[0].documentId}`);
  await page.locator('input[name="title"]').waitFor();
  await page.getByRole('button', { name: 'Save draft' }).waitFor();
  await page.getByRole('button', { name: 'Publish', exact: true }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Delete' }).count(), 0);
  await page.getByRole('menuitem', { name: 'Media library' }).click();
  await page.getByText('library-a.png').waitFor();
  assert.equal(await page.getByRole('button', { name: /^Delete/ }).count(), 0);
});

test('no page error, no console error, no failed request but the deliberate ones', () => {
  assert.deepEqual(browserErrors, []);
  // The slug refused on purpose; the French version that did not exist yet.
  assert.deepEqual(failedRequests.filter((r) => !/^400 POST \/api\/articles .*must be unique/.test(r) && !/^404 GET \/api\/articles\/[^/ ]+ /.test(r)), []);
});
