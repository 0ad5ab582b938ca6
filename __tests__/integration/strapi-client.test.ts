import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { createBlogApp } from '../../examples/blog/app';
import { loadBlogModel } from '../../examples/blog/model';
import { testEngine } from '../helpers/test-engine';

/**
 * The official Strapi JS client (@strapi/client, CommonJS build) drives the example app over real HTTP with
 * the full-access API token, unmodified: collections, single types, the files API, and its error classes.
 */
// Types from the file itself: the repo's `moduleResolution: node` does not read the package's `exports` map.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const client = require('@strapi/client') as typeof import('@strapi/client/dist/exports');
const { strapi } = client;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const tokens = loadBlogModel().permissions.apiTokens;
const FULL = tokens.find((t) => t.type === 'full-access')!.accessKey;
const READ = tokens.find((t) => t.type === 'read-only')!.accessKey;

let server: Server;
let close: () => Promise<void>;
let baseURL: string;
let sdk: ReturnType<typeof strapi>;

beforeAll(async () => {
  const blog = await createBlogApp({ engine: testEngine() });
  close = blog.close;
  server = blog.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  sdk = strapi({ baseURL, auth: FULL });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await close();
});

describe("collection('articles')", () => {
  const articles = () => sdk.collection('articles');

  test('find with populate, filters, sort and pagination', async () => {
    const res = (await articles().find({
      populate: { categories: { fields: ['name'] }, cover: { fields: ['name', 'url'] } },
      filters: { views: { $gt: 10 } },
      sort: ['views:desc'],
      pagination: { page: 1, pageSize: 1 },
    })) as Json;
    expect(res.meta.pagination).toEqual({ page: 1, pageSize: 1, pageCount: 2, total: 2 });
    expect(res.data).toHaveLength(1);
    expect(res.data[0]).toMatchObject({ title: 'Hello content-router', views: 120, cover: { name: 'cover.png' } });
    expect(res.data[0].categories.map((c: Json) => c.name)).toEqual(['Technology', 'Web']);
  });

  test('find with populate *, nested and dynamic zone fragments, fields, locale and status', async () => {
    const star = (await articles().find({ populate: '*', sort: 'title:asc' })) as Json;
    expect(star.data.map((a: Json) => a.title)).toEqual(['Hello content-router', 'Populate in one round trip']);
    expect(star.data[0].author.name).toBe('Ann Archer');
    const on = (await articles().find({
      fields: ['title'],
      filters: { slug: { $eq: 'hello-content-router' } },
      populate: { blocks: { on: { 'shared.quote': { fields: ['title'] }, 'shared.media': { populate: '*' } } }, seo: { populate: ['socials'] } },
    })) as Json;
    expect(on.data[0].blocks.map((b: Json) => b.__component)).toEqual(['shared.quote', 'shared.media']);
    expect(on.data[0].seo.socials[0].network).toBe('twitter');
    const fr = (await articles().find({ locale: 'fr', fields: ['title'] })) as Json;
    expect(fr.data.map((a: Json) => a.title)).toEqual(['Bonjour content-router']);
    const drafts = (await articles().find({ status: 'draft', fields: ['title'] })) as Json;
    expect(drafts.data.map((a: Json) => a.title)).toContain('A draft nobody sees');
  });

  test('findOne, create, update, delete', async () => {
    const categories = (await sdk.collection('categories').find({ filters: { slug: { $eq: 'science' } } })) as Json;
    const science = categories.data[0].documentId as string;

    const created = (await articles().create({ title: 'From the client', views: 3, categories: [science] }, { populate: ['categories'] })) as Json;
    const id = created.data.documentId as string;
    expect(created.data).toMatchObject({ title: 'From the client', views: 3, categories: [{ documentId: science }] });

    const one = (await articles().findOne(id, { fields: ['title', 'views'] })) as Json;
    expect(one).toEqual({ data: { id: expect.any(Number), documentId: id, title: 'From the client', views: 3 }, meta: {} });

    const updated = (await articles().update(id, { views: 4, categories: { disconnect: [science] } }, { populate: 'categories' })) as Json;
    expect(updated.data).toMatchObject({ documentId: id, views: 4, categories: [] });

    await expect(articles().delete(id)).resolves.toBeUndefined();
    await expect(articles().findOne(id)).rejects.toBeInstanceOf(client.HTTPNotFoundError);
  });

  test('a validation error is an HTTPBadRequestError carrying the Strapi error body', async () => {
    const err = (await articles().create({ nope: 1 }).catch((e: unknown) => e)) as InstanceType<typeof client.HTTPBadRequestError>;
    expect(err).toBeInstanceOf(client.HTTPBadRequestError);
    expect(await err.response.json()).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid key nope' } });
  });
});

describe("single('global')", () => {
  test('find and update', async () => {
    const global = sdk.single('global');
    const before = (await global.find({ populate: '*' })) as Json;
    expect(before.data).toMatchObject({ siteName: 'content-router demo', favicon: { name: 'logo.png' }, defaultSeo: { metaTitle: 'content-router' } });
    const updated = (await global.update({ siteDescription: 'Updated by @strapi/client' }, { fields: ['siteName', 'siteDescription'] })) as Json;
    expect(updated.data).toMatchObject({ siteName: 'content-router demo', siteDescription: 'Updated by @strapi/client' });
    const after = (await global.find()) as Json;
    expect(after.data.siteDescription).toBe('Updated by @strapi/client');
  });

  test("single('about') with a dynamic zone", async () => {
    const about = (await sdk.single('about').find({ populate: { blocks: { populate: '*' } } })) as Json;
    expect(about.data.blocks[0]).toMatchObject({ __component: 'shared.quote', title: 'Why' });
  });
});

describe('files', () => {
  let png: Buffer;
  beforeAll(async () => {
    png = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#abcdef' } }).png().toBuffer();
  });

  test('upload, find with filters and sort, findOne, update, delete', async () => {
    const uploaded = await sdk.files.upload(png, { filename: 'from-client.png', mimetype: 'image/png', fileInfo: { alternativeText: 'alt', caption: 'cap' } });
    expect(uploaded).toHaveLength(1);
    const file = uploaded[0]!;
    expect(file).toMatchObject({ name: 'from-client.png', alternativeText: 'alt', caption: 'cap', mime: 'image/png', width: 320, height: 200 });

    const found = await sdk.files.find({ filters: { name: { $contains: 'from-client' } }, sort: 'name:asc' });
    expect(found.map((f) => f.id)).toEqual([file.id]);
    const sorted = await sdk.files.find({ sort: ['name:desc'] });
    expect(sorted.map((f) => f.name)).toEqual([...sorted.map((f) => f.name)].sort().reverse());

    expect(await sdk.files.findOne(file.id)).toMatchObject({ id: file.id, url: file.url });

    const updated = await sdk.files.update(file.id, { name: 'renamed.png', alternativeText: 'new alt', caption: 'new caption' });
    expect(updated).toMatchObject({ id: file.id, name: 'renamed.png', alternativeText: 'new alt', caption: 'new caption', url: file.url });

    const deleted = await sdk.files.delete(file.id);
    expect(deleted).toMatchObject({ id: file.id, name: 'renamed.png' });
    await expect(sdk.files.findOne(file.id)).rejects.toBeInstanceOf(client.HTTPNotFoundError);
    await expect(sdk.files.findOne(file.id)).rejects.toMatchObject({ name: 'FileNotFoundError', fileId: file.id });
  });

  test('a Blob upload works too', async () => {
    const uploaded = await sdk.files.upload(new Blob([new Uint8Array(png)], { type: 'image/png' }));
    expect(uploaded[0]).toMatchObject({ mime: 'image/png', width: 320 });
    await sdk.files.delete(uploaded[0]!.id);
  });
});

describe('auth through the client', () => {
  test('a read-only token reads but cannot write (HTTPForbiddenError, FileForbiddenError)', async () => {
    const ro = strapi({ baseURL, auth: READ });
    expect(((await ro.collection('authors').find()) as Json).data.length).toBeGreaterThan(0);
    await expect(ro.collection('articles').create({ title: 'no' })).rejects.toBeInstanceOf(client.HTTPForbiddenError);
    await expect(ro.files.upload(Buffer.from('x'), { filename: 'x.txt', mimetype: 'text/plain' })).rejects.toMatchObject({ name: 'FileForbiddenError' });
  });

  test('an unknown token is an HTTPAuthorizationError, no token is the public role', async () => {
    await expect(strapi({ baseURL, auth: 'nope' }).collection('articles').find()).rejects.toBeInstanceOf(client.HTTPAuthorizationError);
    const anonymous = strapi({ baseURL });
    expect(((await anonymous.collection('articles').find()) as Json).data.length).toBe(2);
    await expect(anonymous.collection('authors').find()).rejects.toBeInstanceOf(client.HTTPForbiddenError);
  });
});
