import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import request from 'supertest';
import { createTestApp, expectStrapiError, type TestApp } from '../../helpers/http';

/**
 * Decompression bombs and upload abuse. A PNG is pixels, not bytes: a 750 KB file of 16000x16000 made sharp
 * use ~1 GB and 20 s of CPU per upload. Images over `upload.maxPixels` (default 100 megapixels) are refused
 * from their header, before any decoding.
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
  it('a tiny PNG claiming 50000x50000 pixels is a 413 with the default limit, and nothing is stored', async () => {
    const open = await createTestApp({ upload: { directory: dir } });
    for (const [w, h] of [[50000, 50000], [16000, 16000], [100001, 1000]] as const) {
      const res = await request(open.app).post('/api/upload').attach('files', claimedPng(w, h), 'bomb.png');
      expectStrapiError(res, 413, 'PayloadTooLargeError', `bomb.png exceeds the image size limit of 100000000 pixels (${w}x${h}).`);
    }
    expect((await request(open.app).get('/api/upload/files')).body).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('the limit is upload.maxPixels: 201x200 is refused at 40000 pixels, 200x199 is stored', async () => {
    expectStrapiError(await request(t.app).post('/api/upload').attach('files', await png(201, 200), 'big.png'), 413, 'PayloadTooLargeError', 'big.png exceeds the image size limit of 40000 pixels (201x200).');
    const ok = await request(t.app).post('/api/upload').attach('files', await png(200, 199), 'ok.png');
    expect(ok.status).toBe(201);
    expect(ok.body[0]).toMatchObject({ width: 200, height: 199, mime: 'image/png' });
  });

  it('one image over the limit refuses the whole request', async () => {
    const res = await request(t.app).post('/api/upload').attach('files', await png(10, 10), 'a.png').attach('files', claimedPng(1000, 1000), 'b.png');
    expect(res.status).toBe(413);
    expect((await request(t.app).get('/api/upload/files')).body).toEqual([]);
  });

  it('replacing a file with an oversized image keeps the current content', async () => {
    const first = await request(t.app).post('/api/upload').attach('files', await png(50, 40), 'keep.png');
    const { id, hash, ext } = first.body[0] as { id: number; hash: string; ext: string };
    const res = await request(t.app).post(`/api/upload?id=${id}`).attach('files', claimedPng(5000, 5000), 'bomb.png');
    expect(res.status).toBe(413);
    expect(existsSync(path.join(dir, `${hash}${ext}`))).toBe(true);
    expect((await request(t.app).get(`/api/upload/files/${id}`)).body).toMatchObject({ name: 'keep.png', width: 50, height: 40 });
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
