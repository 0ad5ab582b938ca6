import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import request from 'supertest';
import { createBlogApp } from '../../../examples/blog/app';
import { memoryEngine } from '../../../lib';
import { blogTokens } from '../../helpers/conformance/start-blog-app';
import { createTestApp, expectStrapiError, type TestApp } from '../../helpers/http';

/**
 * Decompression bombs and upload abuse. A PNG is pixels, not bytes: a 750 KB file of 16000x16000 made sharp
 * use ~1 GB and 20 s of CPU per upload. Images over `upload.maxPixels` (default 50 megapixels), and requests
 * whose images add up to more than `upload.maxRequestPixels`, are refused from their headers (400), before any
 * decoding. A file's stored type comes from its bytes, not from the client.
 */
let dir: string;
let t: TestApp;

/** A PNG whose header claims `width` x `height` (the pixel data is a few bytes: never decodable in full). */
function claimedPng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_v, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer): number => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(Buffer.alloc(64))), chunk('IEND', Buffer.alloc(0))]);
}

const png = (width: number, height: number): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 10, b: 10 } } }).png().toBuffer();

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'upload-limits-'));
  t = await createTestApp({ upload: { directory: dir, maxPixels: 40_000, maxFiles: 3 } });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('image pixel limit', () => {
  it('a tiny PNG claiming 50000x50000 pixels is a 400 with the default limit, and nothing is stored', async () => {
    const open = await createTestApp({ upload: { directory: dir } });
    for (const [w, h] of [[50000, 50000], [10000, 10000], [50001, 1000]] as const) {
      const res = await request(open.app).post('/api/upload').attach('files', claimedPng(w, h), 'bomb.png');
      expectStrapiError(res, 400, 'ValidationError', `bomb.png exceeds the image size limit of 50000000 pixels (${w}x${h}).`);
      expect(res.body.error.details).toEqual({ limit: 'maxPixels', option: 'upload.maxPixels', max: 50_000_000, file: 'bomb.png', width: w, height: h });
    }
    expect((await request(open.app).get('/api/upload/files')).body).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('the limit is upload.maxPixels: 201x200 is refused at 40000 pixels, 200x199 is stored', async () => {
    expectStrapiError(await request(t.app).post('/api/upload').attach('files', await png(201, 200), 'big.png'), 400, 'ValidationError', 'big.png exceeds the image size limit of 40000 pixels (201x200).');
    const ok = await request(t.app).post('/api/upload').attach('files', await png(200, 199), 'ok.png');
    expect(ok.status).toBe(201);
    expect(ok.body[0]).toMatchObject({ width: 200, height: 199, mime: 'image/png' });
  });

  it('one image over the limit refuses the whole request', async () => {
    const res = await request(t.app).post('/api/upload').attach('files', await png(10, 10), 'a.png').attach('files', claimedPng(1000, 1000), 'b.png');
    expect(res.status).toBe(400);
    expect((await request(t.app).get('/api/upload/files')).body).toEqual([]);
  });

  it('replacing a file with an oversized image keeps the current content', async () => {
    const first = await request(t.app).post('/api/upload').attach('files', await png(50, 40), 'keep.png');
    const { id, hash, ext } = first.body[0] as { id: number; hash: string; ext: string };
    const res = await request(t.app).post(`/api/upload?id=${id}`).attach('files', claimedPng(5000, 5000), 'bomb.png');
    expect(res.status).toBe(400);
    expect(existsSync(path.join(dir, `${hash}${ext}`))).toBe(true);
    expect((await request(t.app).get(`/api/upload/files/${id}`)).body).toMatchObject({ name: 'keep.png', width: 50, height: 40 });
  });
});

describe('the images of one request', () => {
  it('upload.maxRequestPixels bounds their sum: three images of 100x100 pass at 30000, four are a 400 and nothing is stored', async () => {
    const app = (await createTestApp({ upload: { directory: dir, maxRequestPixels: 30_000, maxFiles: 5 } })).app;
    const image = await png(100, 100);
    const send = (n: number) => {
      let req = request(app).post('/api/upload');
      for (let i = 0; i < n; i++) req = req.attach('files', image, `p${i}.png`);
      return req;
    };
    const four = await send(4);
    expectStrapiError(four, 400, 'ValidationError', 'The images of this request exceed the limit of 30000 pixels per request (40000); upload them in several requests.');
    expect(four.body.error.details).toEqual({ limit: 'maxRequestPixels', option: 'upload.maxRequestPixels', max: 30_000, pixels: 40_000 });
    expect(await readdir(dir)).toEqual([]);
    expect((await send(3)).status).toBe(201);
  });
});

describe('the stored type comes from the bytes', () => {
  it('an HTML page sent as x.png (image/png) is not an image, and an images-only media field refuses it', async () => {
    // The example app: author.avatar allows images only.
    const blog = await createBlogApp({ seed: false, engine: memoryEngine({ ephemeral: true }), uploadsDir: dir });
    const auth = { authorization: `Bearer ${blogTokens().fullToken}` };
    try {
      const res = await request(blog.app).post('/api/upload').set(auth).attach('files', Buffer.from('<!doctype html><script>alert(1)</script>'), { filename: 'x.png', contentType: 'image/png' });
      expect(res.status).toBe(201);
      expect(res.body[0]).toMatchObject({ name: 'x.png', ext: '.png', mime: 'application/octet-stream', width: null, height: null, formats: null });
      const avatar = await request(blog.app).post('/api/authors').set(auth).send({ data: { name: 'html avatar', avatar: res.body[0].id } });
      expectStrapiError(avatar, 400, 'ValidationError');
      expect(avatar.body.error.details.errors).toEqual([expect.objectContaining({ path: ['avatar'], value: res.body[0].id })]);
      const image = await request(blog.app).post('/api/upload').set(auth).attach('files', await png(20, 10), { filename: 'face.png', contentType: 'image/png' });
      expect((await request(blog.app).post('/api/authors').set(auth).send({ data: { name: 'png avatar', avatar: image.body[0].id } })).status).toBe(201);
    } finally {
      await blog.close();
    }
  });

  it('a PDF sent as image/png is stored as application/pdf; a real PNG sent as text/plain as image/png', async () => {
    const pdf = await request(t.app).post('/api/upload').attach('files', Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n'), { filename: 'doc.png', contentType: 'image/png' });
    expect(pdf.body[0]).toMatchObject({ mime: 'application/pdf', width: null });
    const real = await request(t.app).post('/api/upload').attach('files', await png(20, 10), { filename: 'real.txt', contentType: 'text/plain' });
    expect(real.body[0]).toMatchObject({ mime: 'image/png', width: 20, height: 10 });
  });

  it('bytes with an image signature that sharp cannot read are a 400 "File is not a valid image", nothing stored', async () => {
    const res = await request(t.app).post('/api/upload').attach('files', Buffer.from('\u0089PNG\r\n\u001a\nnot really', 'latin1'), { filename: 'x.png', contentType: 'image/png' });
    expectStrapiError(res, 400, 'ApplicationError', 'File is not a valid image');
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('other upload abuse', () => {
  it('upload.maxFiles bounds the files of one request', async () => {
    let req = request(t.app).post('/api/upload');
    for (let i = 0; i < 4; i++) req = req.attach('files', Buffer.from('x'), `f${i}.txt`);
    expectStrapiError(await req, 400, 'ValidationError', 'Too many files: at most 3 per request');
  });

  it('a zero-byte file is stored as an empty file', async () => {
    const res = await request(t.app).post('/api/upload').attach('files', Buffer.alloc(0), 'empty.png');
    expect(res.status).toBe(201);
    expect(res.body[0]).toMatchObject({ name: 'empty.png', size: 0, width: null, formats: null });
  });

  it('a fileInfo update sanitises the name as an upload does', async () => {
    const first = await request(t.app).post('/api/upload').attach('files', Buffer.from('x'), 'a.txt');
    const res = await request(t.app).post(`/api/upload?id=${first.body[0].id}`).send({ fileInfo: { name: '../../etc/pass<wd>' } });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('passwd');
  });
});
