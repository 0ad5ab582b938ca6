import { ValidationError } from '../../../lib/errors';
import { type ImageHeader, assertPixelBudget } from '../../../lib/media/image-header';
import { createSlots } from '../../../lib/media/image-slots';

const png = (width: number, height: number): ImageHeader => ({ format: 'png', mime: 'image/png', width, height, pixels: width * height });
const svg: ImageHeader = { format: 'svg', mime: 'image/svg+xml', width: 100000, height: 100000, pixels: 0 };
const limits = { maxPixels: 100, maxRequestPixels: 250 };

describe('assertPixelBudget', () => {
  test('images within both limits, SVGs (never decoded) and other files pass', () => {
    expect(() => assertPixelBudget([{ name: 'a.png', header: png(10, 10) }, { name: 'b.png', header: png(10, 10) }, { name: 'c.svg', header: svg }, { name: 'd.txt', header: null }], limits)).not.toThrow();
  });

  test('one image over maxPixels: a 400 naming the file, its size and the option', () => {
    const run = () => assertPixelBudget([{ name: 'a.png', header: png(10, 10) }, { name: 'big.png', header: png(11, 10) }], limits);
    expect(run).toThrow(ValidationError);
    expect(run).toThrow('big.png exceeds the image size limit of 100 pixels (11x10).');
    try {
      run();
    } catch (e) {
      expect((e as ValidationError).details).toEqual({ limit: 'maxPixels', option: 'upload.maxPixels', max: 100, file: 'big.png', width: 11, height: 10 });
    }
  });

  test('images over maxRequestPixels together: a 400 naming the total and the option', () => {
    const three = [1, 2, 3].map((i) => ({ name: `${i}.png`, header: png(10, 10) }));
    expect(() => assertPixelBudget(three, limits)).toThrow('The images of this request exceed the limit of 250 pixels per request (300); upload them in several requests.');
    expect(() => assertPixelBudget(three.slice(0, 2), limits)).not.toThrow();
  });
});

describe('createSlots', () => {
  test('runs one task at a time, in arrival order, and frees the slot when a task fails', async () => {
    const slots = createSlots(1);
    const log: string[] = [];
    let release!: () => void;
    const first = slots.run(async () => {
      log.push('start 1');
      await new Promise<void>((resolve) => (release = resolve));
      log.push('end 1');
    });
    const second = slots.run(async () => {
      log.push('start 2');
      throw new Error('boom');
    });
    const third = slots.run(async () => {
      log.push('start 3');
      return 3;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['start 1']);
    release();
    await first;
    await expect(second).rejects.toThrow('boom');
    expect(await third).toBe(3);
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'start 3']);
  });
});
