import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { ApplicationError } from '../../../lib/errors';
import { DEFAULT_BREAKPOINTS } from '../../../lib/media';
import { readImageHeader } from '../../../lib/media/image-header';
import { MAX_QUANTIZED_PIXELS, fitInside, processImage } from '../../../lib/media/process-image';

const MAX = 50_000_000;

/** readImageHeader, then processImage (what the media service does). */
async function process(file: { path: string; sizeInBytes: number; hash: string }, breakpoints: Readonly<Record<string, number>> = DEFAULT_BREAKPOINTS) {
  const header = await readImageHeader(file.path);
  if (!header) return null;
  return processImage(file, header, dir, breakpoints, MAX);
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'media-process-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function image(format: 'png' | 'jpeg', width: number, height: number): Promise<{ path: string; sizeInBytes: number; hash: string }> {
  const buffer = await sharp({ create: { width, height, channels: 3, background: { r: 30, g: 140, b: 200 } } })
    .toFormat(format)
    .toBuffer();
  const file = path.join(dir, `in.${format}`);
  await writeFile(file, buffer);
  return { path: file, sizeInBytes: buffer.length, hash: 'img_0123456789' };
}

describe('processImage', () => {
  test.each([
    ['png', 16, 16, []],
    ['png', 245, 156, []],
    ['png', 200, 120, []],
    ['png', 400, 300, [['thumbnail', 208, 156]]],
    ['png', 640, 480, [['thumbnail', 208, 156], ['small', 500, 375]]],
    ['jpeg', 1200, 900, [['thumbnail', 208, 156], ['small', 500, 375], ['medium', 750, 563], ['large', 1000, 750]]],
    ['png', 300, 1100, [['thumbnail', 43, 156], ['small', 136, 500], ['medium', 205, 750], ['large', 273, 1000]]],
    ['jpeg', 246, 100, [['thumbnail', 245, 100]]],
  ] as const)('%s %dx%d -> %j', async (format, width, height, expected) => {
    const result = await process(await image(format, width, height));
    expect(result).not.toBeNull();
    expect(result!.width).toBe(width);
    expect(result!.height).toBe(height);
    expect(result!.mime).toBe(`image/${format}`);
    expect(result!.renditions.map((r) => [r.key, r.width, r.height])).toEqual(expected);
    for (const r of result!.renditions) {
      const meta = await sharp(r.path).metadata();
      expect([meta.format, meta.width, meta.height, (await stat(r.path)).size]).toEqual([format, r.width, r.height, r.sizeInBytes]);
    }
  });

  test('breakpoints are configurable', async () => {
    const result = await process(await image('png', 640, 480), { tiny: 100, huge: 2000 });
    expect(result!.renditions.map((r) => [r.key, r.width, r.height])).toEqual([['thumbnail', 208, 156], ['tiny', 100, 75]]);
  });

  test('the optimised original is kept only when smaller', async () => {
    const input = await image('jpeg', 800, 600);
    const result = await process(input, {});
    expect(result!.sizeInBytes).toBeLessThanOrEqual(input.sizeInBytes);
    expect((await stat(result!.path)).size).toBe(result!.sizeInBytes);
  });

  test('a non-image has no image header; a broken image is a 400 "File is not a valid image" (Strapi\'s answer)', async () => {
    const text = path.join(dir, 'notes.txt');
    await writeFile(text, 'hello');
    expect(await readImageHeader(text)).toBeNull();
    // The header reads, the pixels do not: half a JPEG.
    const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 50 } } }).jpeg().toBuffer();
    const broken = path.join(dir, 'broken.jpg');
    await writeFile(broken, jpeg.subarray(0, jpeg.length >> 1));
    expect(await readImageHeader(broken)).toMatchObject({ format: 'jpeg', width: 300 });
    const failure = process({ path: broken, sizeInBytes: jpeg.length >> 1, hash: 'b_0123456789' });
    await expect(failure).rejects.toBeInstanceOf(ApplicationError);
    await expect(failure).rejects.toMatchObject({ status: 400, message: 'File is not a valid image' });
  });

  test('an SVG is never rasterised: one declaring 100000x100000 pixels is an image of that size, stored as it is', async () => {
    const svg = path.join(dir, 'huge.svg');
    await writeFile(svg, '<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="10" height="10"/></svg>');
    const header = await readImageHeader(svg);
    expect(header).toEqual({ format: 'svg', mime: 'image/svg+xml', width: 100000, height: 100000, pixels: 0 });
    const result = await processImage({ path: svg, sizeInBytes: 100, hash: 's_0123456789' }, header!, dir, DEFAULT_BREAKPOINTS, 1000);
    expect(result).toEqual({ width: 100000, height: 100000, mime: 'image/svg+xml', path: svg, sizeInBytes: 100, renditions: [] });
  });

  test(`a PNG over ${MAX_QUANTIZED_PIXELS} pixels is kept as uploaded (no palette re-encoding); a smaller one is optimised`, async () => {
    const big = await image('png', 2001, 2000);
    expect((await process(big, {}))!.path).toBe(big.path);
    const small = await image('png', 1000, 1000);
    expect((await process(small, {}))!.path).not.toBe(small.path);
  });
});

describe('fitInside', () => {
  test.each([
    [1200, 900, 245, 156], [300, 1100, 500, 500], [246, 100, 245, 156], [7071, 7071, 1000, 1000], [10, 4000, 245, 156],
    [4000, 3, 750, 750], [1001, 999, 1000, 1000], [3, 3, 1, 1], [1919, 1081, 500, 500], [999, 333, 245, 156],
  ])('%dx%d inside %dx%d is what sharp makes of it', async (width, height, box, boxHeight) => {
    const input = await sharp({ create: { width, height, channels: 3, background: '#000' } }).png().toBuffer();
    const info = await sharp(input).resize({ width: box, height: boxHeight, fit: 'inside' }).png().toBuffer({ resolveWithObject: true });
    expect(fitInside(width, height, box, boxHeight)).toEqual({ width: info.info.width, height: info.info.height });
  });
});
