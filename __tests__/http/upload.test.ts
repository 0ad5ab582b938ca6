import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import sharp from 'sharp';
import request from 'supertest';
import { OPEN_ABILITY } from '../../lib/auth/types';
import { type Engine, memoryEngine } from '../../lib/engine';
import { formatError } from '../../lib/format';
import { setAbility } from '../../lib/http/request-context';
import { createUploadRouter } from '../../lib/http/upload-router';
import { type MediaService, createMediaService, localProvider } from '../../lib/media';
import { serveUploads } from '../../lib/http/serve-uploads';
import type { MediaAttribute } from '../../lib/schema';
import { loadBlogRegistry } from '../helpers/blog-registry';
import { indexCheckedEngine } from '../helpers/index-eligibility';

const registry = loadBlogRegistry();
const GOLDEN_KEYS = [
  'id', 'documentId', 'name', 'alternativeText', 'caption', 'focalPoint', 'width', 'height', 'formats', 'hash', 'ext', 'mime',
  'size', 'url', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt', 'publishedAt', 'isUrlSigned',
];
const FORMAT_KEYS = ['name', 'hash', 'ext', 'mime', 'path', 'width', 'height', 'size', 'sizeInBytes', 'url'];

let dir: string;
let engine: Engine;
let media: MediaService;
let app: express.Express;

function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: width % 255, g: 90, b: height % 255 } } }).png().toBuffer();
}

function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 10, g: 200, b: 90 } } }).jpeg().toBuffer();
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'upload-http-'));
  // On purpose: the media service alone, a fresh store per test and nothing to close; reads index-checked.
  engine = indexCheckedEngine(memoryEngine({ ephemeral: true }));
  let n = 0;
  media = createMediaService({
    engine, registry, provider: localProvider({ directory: dir }), sizeLimit: 64 * 1024,
    clock: () => new Date('2026-01-02T03:04:05.000Z'), documentId: () => `doc${++n}`,
  });
  app = express();
  app.use((req, _res, next) => {
    const denied = String(req.headers['x-deny'] ?? '');
    setAbility(req, denied ? { ...OPEN_ABILITY, can: (a) => !denied.split(',').includes(a), subject: 'test' } : OPEN_ABILITY);
    next();
  });
  app.use('/api/upload', createUploadRouter(media));
  app.use('/uploads', serveUploads(dir));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const { status, body } = formatError(err);
    res.status(status).json(body);
  });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const stored = async () => (await readdir(dir)).sort();

describe('POST /api/upload', () => {
  test('a PNG: bare array, every field, thumbnail and small formats of the right size, files on disk', async () => {
    const res = await request(app).post('/api/upload').attach('files', await png(640, 480), { filename: 'large.png', contentType: 'image/png' });
    expect(res.status).toBe(201);
    expect(Array.isArray(res.body)).toBe(true);
    const [file] = res.body;
    expect(Object.keys(file)).toEqual(GOLDEN_KEYS);
    expect(file).toMatchObject({
      id: 1, documentId: 'doc1', name: 'large.png', alternativeText: null, caption: null, focalPoint: null, width: 640, height: 480,
      ext: '.png', mime: 'image/png', previewUrl: null, provider: 'local', provider_metadata: null, isUrlSigned: false,
      createdAt: '2026-01-02T03:04:05.000Z', updatedAt: '2026-01-02T03:04:05.000Z', publishedAt: '2026-01-02T03:04:05.000Z',
    });
    expect(file.hash).toMatch(/^large_[0-9a-f]{10}$/);
    expect(file.url).toBe(`/uploads/${file.hash}.png`);
    expect(Object.keys(file.formats)).toEqual(['thumbnail', 'small']);
    expect(Object.keys(file.formats.thumbnail)).toEqual(FORMAT_KEYS);
    expect(file.formats.thumbnail).toMatchObject({ name: 'thumbnail_large.png', hash: `thumbnail_${file.hash}`, ext: '.png', mime: 'image/png', path: null, width: 208, height: 156, url: `/uploads/thumbnail_${file.hash}.png` });
    expect(file.formats.small).toMatchObject({ name: 'small_large.png', hash: `small_${file.hash}`, width: 500, height: 375 });
    expect(await stored()).toEqual([`${file.hash}.png`, `small_${file.hash}.png`, `thumbnail_${file.hash}.png`].sort());
    for (const f of Object.values(file.formats) as { hash: string; width: number; height: number; sizeInBytes: number; size: number }[]) {
      const meta = await sharp(path.join(dir, `${f.hash}.png`)).metadata();
      expect([meta.width, meta.height]).toEqual([f.width, f.height]);
      expect(f.size).toBe(Math.round(f.sizeInBytes / 10) / 100);
    }
    const served = await request(app).get(file.url);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });

  test('a large JPEG gets every format', async () => {
    const res = await request(app).post('/api/upload').attach('files', await jpeg(1200, 900), { filename: 'photo.jpg', contentType: 'image/jpeg' });
    expect(res.status).toBe(201);
    const { formats, width, height, mime, ext } = res.body[0];
    expect([width, height, mime, ext]).toEqual([1200, 900, 'image/jpeg', '.jpg']);
    const dims = Object.fromEntries(Object.entries(formats as Record<string, { width: number; height: number }>).map(([k, f]) => [k, [f.width, f.height]]));
    expect(dims).toEqual({ thumbnail: [208, 156], small: [500, 375], medium: [750, 563], large: [1000, 750] });
  }, 30000);

  test.each([
    [16, 16, null],
    [200, 120, null],
    [400, 300, ['thumbnail']],
  ])('a %dx%d PNG has formats %j', async (w, h, keys) => {
    const res = await request(app).post('/api/upload').attach('files', await png(w, h), { filename: 'img.png', contentType: 'image/png' });
    expect(res.status).toBe(201);
    expect(res.body[0].formats === null ? null : Object.keys(res.body[0].formats)).toEqual(keys);
  });

  test('a text file: no width, height or formats; size in KB', async () => {
    const text = 'Plain text attachment for the oracle corpus.\n';
    const res = await request(app).post('/api/upload').attach('files', Buffer.from(text), { filename: 'notes.txt', contentType: 'text/plain' });
    expect(res.status).toBe(201);
    expect(res.body[0]).toMatchObject({ name: 'notes.txt', width: null, height: null, formats: null, ext: '.txt', mime: 'text/plain', size: 0.05 });
    expect(res.body[0].hash).toMatch(/^notes_[0-9a-f]{10}$/);
    expect(readFileSync(path.join(dir, `${res.body[0].hash}.txt`), 'utf8')).toBe(text);
  });

  test('two files in one request: an array in request order', async () => {
    const res = await request(app)
      .post('/api/upload')
      .attach('files', await png(24, 12), { filename: 'pair-a.png', contentType: 'image/png' })
      .attach('files', await png(12, 24), { filename: 'pair-b.png', contentType: 'image/png' });
    expect(res.status).toBe(201);
    expect(res.body.map((f: { id: number; name: string; width: number }) => [f.id, f.name, f.width])).toEqual([[1, 'pair-a.png', 24], [2, 'pair-b.png', 12]]);
    expect(res.body[0].hash).toMatch(/^pair_a_[0-9a-f]{10}$/);
  });

  test('fileInfo sets name, alternativeText and caption (object, or array for several files)', async () => {
    const one = await request(app)
      .post('/api/upload')
      .field('fileInfo', JSON.stringify({ name: 'logo-named.png', alternativeText: 'The logo', caption: 'Logo caption' }))
      .attach('files', await png(32, 32), { filename: 'logo.png', contentType: 'image/png' });
    expect(one.status).toBe(201);
    expect(one.body[0]).toMatchObject({ name: 'logo-named.png', alternativeText: 'The logo', caption: 'Logo caption' });
    expect(one.body[0].hash).toMatch(/^logo_named_[0-9a-f]{10}$/);
    const two = await request(app)
      .post('/api/upload')
      .field('fileInfo', JSON.stringify([{ caption: 'first' }, { caption: 'second' }]))
      .attach('files', Buffer.from('a'), { filename: 'a.txt', contentType: 'text/plain' })
      .attach('files', Buffer.from('b'), { filename: 'b.txt', contentType: 'text/plain' });
    expect(two.body.map((f: { caption: string }) => f.caption)).toEqual(['first', 'second']);
  });

  test.each([
    ['{"nope":1}', 'fileInfo field has unspecified keys: nope'],
    ['{"name":5}', 'fileInfo.name must be a `string` type'],
    ['not json', 'fileInfo must be valid JSON'],
  ])('a bad fileInfo %s is a 400', async (fileInfo, message) => {
    const res = await request(app).post('/api/upload').field('fileInfo', fileInfo).attach('files', Buffer.from('x'), { filename: 'x.txt', contentType: 'text/plain' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ name: 'ValidationError', message });
    expect(await stored()).toEqual([]);
  });

  test('no file: 400 "Files are empty"', async () => {
    const res = await request(app).post('/api/upload').field('fileInfo', '{}');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: 'Files are empty', details: {} } });
    const json = await request(app).post('/api/upload').send({});
    expect(json.status).toBe(400);
  });

  test('a file over the size limit: 413, nothing stored', async () => {
    const res = await request(app).post('/api/upload').attach('files', Buffer.alloc(100 * 1024, 1), { filename: 'big.bin', contentType: 'application/octet-stream' });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ status: 413, name: 'PayloadTooLargeError', message: 'big.bin exceeds size limit of 66 KB.' });
    expect(await stored()).toEqual([]);
    expect(await engine.count('files', {})).toBe(0);
  });

  test('a hostile name is sanitised and stays in the folder', async () => {
    const res = await request(app)
      .post('/api/upload')
      .attach('files', Buffer.from('pwned'), { filename: '..\\..\\ev<i>l|?*.txt', contentType: 'text/plain' });
    expect(res.status).toBe(201);
    expect(res.body[0].name).toBe('evil.txt');
    expect(res.body[0].hash).toMatch(/^evil_[0-9a-f]{10}$/);
    const named = await request(app)
      .post('/api/upload')
      .field('fileInfo', JSON.stringify({ name: '../../../etc/passwd\u0000.txt' }))
      .attach('files', Buffer.from('x'), { filename: 'x.txt', contentType: 'text/plain' });
    expect(named.body[0].name).toBe('passwd.txt');
    expect((await stored()).every((f) => /^[a-z_0-9]+\.txt$/.test(f))).toBe(true);
    expect(existsSync(path.join(dir, '..', 'evil.txt'))).toBe(false);
    const raw = await request(app).post('/api/upload').attach('files', Buffer.from('x'), { filename: 'a\u0001.txt', contentType: 'text/plain' });
    expect([raw.status, raw.body.error?.name]).toEqual([400, 'ValidationError']);
  });

  test('too many files: 400', async () => {
    const small = createMediaService({ engine, registry, provider: localProvider({ directory: dir }), maxFiles: 1 });
    const app2 = express();
    app2.use((req, _res, next) => (setAbility(req, OPEN_ABILITY), next()));
    app2.use('/api/upload', createUploadRouter(small));
    app2.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => res.status(formatError(err).status).json(formatError(err).body));
    const res = await request(app2)
      .post('/api/upload')
      .attach('files', Buffer.from('a'), { filename: 'a.txt', contentType: 'text/plain' })
      .attach('files', Buffer.from('b'), { filename: 'b.txt', contentType: 'text/plain' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Too many files: at most 1 per request');
  });
});

async function uploadText(name: string, body = 'hello'): Promise<{ id: number; hash: string; url: string }> {
  const res = await request(app).post('/api/upload').attach('files', Buffer.from(body), { filename: name, contentType: 'text/plain' });
  expect(res.status).toBe(201);
  return res.body[0];
}

describe('GET /api/upload/files', () => {
  test('a bare array in upload order, with filters, sort and pagination', async () => {
    await uploadText('b.txt');
    await uploadText('a.txt');
    await uploadText('c.txt');
    const all = await request(app).get('/api/upload/files');
    expect(all.status).toBe(200);
    expect(all.body.map((f: { name: string }) => f.name)).toEqual(['b.txt', 'a.txt', 'c.txt']);
    expect(all.body[0].isUrlSigned).toBe(false);
    const sorted = await request(app).get('/api/upload/files?sort=name:desc&pagination[page]=1&pagination[pageSize]=2');
    expect(sorted.body.map((f: { name: string }) => f.name)).toEqual(['c.txt', 'b.txt']);
    const filtered = await request(app).get('/api/upload/files?filters[name][$in][0]=a.txt&filters[name][$in][1]=c.txt');
    expect(filtered.body.map((f: { name: string }) => f.name)).toEqual(['a.txt', 'c.txt']);
    const bad = await request(app).get('/api/upload/files?filters[secret][$eq]=1');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key secret' });
  });

  test('skips past Number.MAX_SAFE_INTEGER are 400s as on content types (MongoDB takes 64-bit integers); sizes are capped', async () => {
    await uploadText('a.txt');
    for (const q of ['pagination[start]=1e20', 'pagination[page]=1e20', 'pagination[page]=9007199254740991&pagination[pageSize]=100']) {
      const res = await request(app).get(`/api/upload/files?${q}`);
      expect({ q, status: res.status, name: res.body.error?.name }).toEqual({ q, status: 400, name: 'ValidationError' });
    }
    expect((await request(app).get('/api/upload/files?pagination[limit]=1e20')).body.map((f: { name: string }) => f.name)).toEqual(['a.txt']);
    const edge = await request(app).get(`/api/upload/files?pagination[start]=${Number.MAX_SAFE_INTEGER}&pagination[limit]=${Number.MAX_SAFE_INTEGER}`);
    expect([edge.status, edge.body]).toEqual([200, []]);
  });

  test('GET /files/:id answers the bare object; unknown ids are 404 file.notFound', async () => {
    const file = await uploadText('one.txt');
    const res = await request(app).get(`/api/upload/files/${file.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: file.id, name: 'one.txt', isUrlSigned: false });
    for (const id of ['999', 'abc', '1.5']) {
      const missing = await request(app).get(`/api/upload/files/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body.error).toEqual({ status: 404, name: 'NotFoundError', message: 'file.notFound', details: {} });
    }
  });
});

describe('updating a file (POST /api/upload?id=)', () => {
  test('fileInfo as a multipart field or a JSON body updates the info only', async () => {
    const file = await uploadText('one.txt');
    const res = await request(app).post(`/api/upload?id=${file.id}`).field('fileInfo', JSON.stringify({ alternativeText: 'Alt', caption: 'Cap' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: file.id, name: 'one.txt', alternativeText: 'Alt', caption: 'Cap', hash: file.hash, isUrlSigned: false });
    const json = await request(app).post(`/api/upload?id=${file.id}`).send({ fileInfo: { name: 'renamed.txt', caption: null } });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ name: 'renamed.txt', alternativeText: 'Alt', caption: 'Cap', url: file.url });
    expect((await request(app).get(`/api/upload/files/${file.id}`)).body.name).toBe('renamed.txt');
  });

  test('an unknown id is a 404, a repeated id a 400', async () => {
    const res = await request(app).post('/api/upload?id=77').send({ fileInfo: { name: 'x' } });
    expect([res.status, res.body.error.message]).toEqual([404, 'Entity not found']);
    const twice = await request(app).post('/api/upload?id=1&id=2').send({ fileInfo: {} });
    expect([twice.status, twice.body.error.message]).toEqual([400, 'File id is required and must be a single value']);
  });

  test('with a file, the content is replaced and the URL kept', async () => {
    const file = await uploadText('one.txt', 'old');
    const res = await request(app).post(`/api/upload?id=${file.id}`).attach('files', await png(400, 300), { filename: 'new.png', contentType: 'image/png' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: file.id, hash: file.hash, url: file.url, ext: '.txt', mime: 'image/png', width: 400, name: 'new.png' });
    expect(Object.keys(res.body.formats)).toEqual(['thumbnail']);
    expect(await stored()).toEqual([`${file.hash}.txt`, `thumbnail_${file.hash}.txt`].sort());
  });
});

describe('DELETE /api/upload/files/:id', () => {
  test('removes the stored objects and detaches the file from every document', async () => {
    const res = await request(app).post('/api/upload').attach('files', await png(640, 480), { filename: 'big.png', contentType: 'image/png' });
    const file = res.body[0];
    const other = await uploadText('keep.txt');
    await engine.insertMany('articles', [
      {
        id: 1, documentId: 'a1', locale: 'en', _status: 'published', title: 'A', cover: file.id, gallery: [other.id, file.id],
        seo: { id: 1, metaTitle: 'm', shareImage: file.id },
        blocks: [{ id: 2, __component: 'shared.media', file: file.id }, { id: 3, __component: 'shared.slider', files: [file.id, other.id] }],
      },
      { id: 2, documentId: 'a2', locale: 'en', _status: 'draft', title: 'B', cover: other.id, gallery: [] },
    ]);
    await engine.insertMany('authors', [{ id: 1, documentId: 'au', _status: 'published', name: 'Ann', avatar: file.id }]);
    const del = await request(app).delete(`/api/upload/files/${file.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: file.id, isUrlSigned: false });
    expect(await stored()).toEqual([`${other.hash}.txt`]);
    const [a1, a2] = await engine.find('articles', {}, { sort: { id: 1 } });
    expect(a1).toMatchObject({
      cover: null, gallery: [other.id], seo: { shareImage: null },
      blocks: [{ __component: 'shared.media', file: null }, { __component: 'shared.slider', files: [other.id] }],
    });
    expect(a2).toMatchObject({ cover: other.id, gallery: [] });
    expect((await engine.find('authors', {}))[0]).toMatchObject({ avatar: null });
    expect((await request(app).get(`/api/upload/files/${file.id}`)).status).toBe(404);
    expect((await request(app).delete(`/api/upload/files/${file.id}`)).status).toBe(404);
  });
});

describe('permissions', () => {
  test.each([
    ['get', '/api/upload/files', 'plugin::upload.content-api.find'],
    ['get', '/api/upload/files/1', 'plugin::upload.content-api.findOne'],
    ['delete', '/api/upload/files/1', 'plugin::upload.content-api.destroy'],
    ['post', '/api/upload', 'plugin::upload.content-api.upload'],
    ['post', '/api/upload?id=1', 'plugin::upload.content-api.upload'],
  ] as const)('%s %s needs %s', async (method, url, action) => {
    await uploadText('one.txt');
    const res = await request(app)[method](url).set('x-deny', action);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
    const other = await request(app)[method](url).set('x-deny', 'something.else');
    expect(other.status).not.toBe(403);
  });
});

describe('checks for the documents service', () => {
  test('exists answers the missing ids; allowedTypes refuses other MIME types', async () => {
    const text = await uploadText('notes.txt');
    const image = (await request(app).post('/api/upload').attach('files', await png(8, 8), { filename: 'i.png', contentType: 'image/png' })).body[0];
    expect(await media.exists([text.id, image.id, 99, 98])).toEqual([99, 98]);
    const gallery = registry.contentType('api::article.article').attributes.gallery as MediaAttribute;
    expect(await media.disallowed([text.id, image.id], gallery.allowedTypes)).toEqual([{ id: text.id, mime: 'text/plain' }]);
    await expect(media.checkAllowedTypes(gallery, [image.id])).resolves.toBeUndefined();
    const err = await media.checkAllowedTypes(gallery, [image.id, text.id], ['gallery']).catch((e: unknown) => e);
    expect(formatError(err)).toMatchObject({ status: 400, body: { error: { name: 'ValidationError', details: { errors: [{ path: ['gallery'], value: text.id }] } } } });
  });
});

describe('serveUploads', () => {
  test.each(['/uploads/..%2Fsecret.txt', '/uploads/../secret.txt', '/uploads/.hidden', '/uploads/%2e%2e%2fx.txt', '/uploads/missing.txt'])('%s is not served', async (url) => {
    const res = await request(app).get(url);
    expect(res.status).toBe(404);
  });
});
