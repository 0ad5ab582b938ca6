import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { DEFAULT_BREAKPOINTS } from '../../../lib/media';
import { processImage } from '../../../lib/media/process-image';

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
    const result = await processImage(await image(format, width, height), dir, DEFAULT_BREAKPOINTS);
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
    const result = await processImage(await image('png', 640, 480), dir, { tiny: 100, huge: 2000 });
    expect(result!.renditions.map((r) => [r.key, r.width, r.height])).toEqual([['thumbnail', 208, 156], ['tiny', 100, 75]]);
  });

  test('the optimised original is kept only when smaller', async () => {
    const input = await image('jpeg', 800, 600);
    const result = await processImage(input, dir, {});
    expect(result!.sizeInBytes).toBeLessThanOrEqual(input.sizeInBytes);
    expect((await stat(result!.path)).size).toBe(result!.sizeInBytes);
  });

  test('a non-image or a broken image is not an image', async () => {
    const text = path.join(dir, 'notes.txt');
    await writeFile(text, 'hello');
    expect(await processImage({ path: text, sizeInBytes: 5, hash: 'notes_0123456789' }, dir, DEFAULT_BREAKPOINTS)).toBeNull();
    const png = await image('png', 50, 50);
    const broken = path.join(dir, 'broken.png');
    await writeFile(broken, (await readFile(png.path)).subarray(0, 40));
    expect(await processImage({ path: broken, sizeInBytes: 40, hash: 'b_0123456789' }, dir, DEFAULT_BREAKPOINTS)).toBeNull();
  });
});
