import path from 'node:path';
import sharp from 'sharp';
import type { FormatEnum, Sharp } from 'sharp';
import { ApplicationError } from '../errors';
import { DECODED_FORMATS, type ImageHeader } from './image-header';

/** Default responsive breakpoints (Strapi's): a format is made when the image is larger than it. */
export const DEFAULT_BREAKPOINTS: Readonly<Record<string, number>> = Object.freeze({ small: 500, medium: 750, large: 1000 });

/** The thumbnail box (fit inside). */
export const THUMBNAIL = Object.freeze({ width: 245, height: 156 });

/** Re-encoded at quality 80 (Strapi's `sizeOptimization`); AVIF is not (its encoder costs seconds per megapixel). */
const OPTIMIZED = new Set(['jpeg', 'png', 'webp', 'tiff']);

/**
 * A PNG is optimised by reducing it to a palette (sharp's `quality` for PNG), which costs about 1 s per megapixel
 * of photographic content and cannot be interrupted (sharp's `timeout` does not reach it): larger PNGs are kept
 * as uploaded.
 */
export const MAX_QUANTIZED_PIXELS = 4_000_000;

/** sharp's own `timeout` of the optimisation pass: one that takes longer is dropped and the original kept. */
export const OPTIMIZE_TIMEOUT_SECONDS = 3;

/** One generated rendition, written next to the upload in the request's temporary folder. */
export interface Rendition {
  key: string;
  path: string;
  width: number;
  height: number;
  sizeInBytes: number;
}

export interface ProcessedImage {
  width: number;
  height: number;
  /** The MIME type of the detected format (the client's type is not trusted for images). */
  mime: string;
  /** The file to store as the original (optimised when that made it smaller). */
  path: string;
  sizeInBytes: number;
  renditions: Rendition[];
}

type OptimizableFormat = 'jpeg' | 'png' | 'webp' | 'tiff';

/**
 * The size of `width` x `height` fitted inside `box` x `boxHeight`, rounded as sharp's `fit: 'inside'` rounds it.
 *
 * @example fitInside(1200, 900, 245, 156) // { width: 208, height: 156 }
 */
export function fitInside(width: number, height: number, box: number, boxHeight: number): { width: number; height: number } {
  const xFactor = width / box;
  const yFactor = height / boxHeight;
  return xFactor > yFactor
    ? { width: box, height: Math.max(1, Math.round(height / xFactor)) }
    : { width: Math.max(1, Math.round(width / yFactor)), height: boxHeight };
}

/** The renditions an image of this size gets: the thumbnail, then one per breakpoint smaller than the image. */
function plannedRenditions(width: number, height: number, breakpoints: Readonly<Record<string, number>>): { key: string; width: number; height: number }[] {
  const planned: { key: string; width: number; height: number }[] = [];
  if (width > THUMBNAIL.width || height > THUMBNAIL.height) planned.push({ key: 'thumbnail', ...fitInside(width, height, THUMBNAIL.width, THUMBNAIL.height) });
  for (const [key, size] of Object.entries(breakpoints)) {
    if (size < width || size < height) planned.push({ key, ...fitInside(width, height, size, size) });
  }
  return planned;
}

/**
 * Processes an uploaded image whose header `readImageHeader` read (and the pixel limits accepted). SVG, AVIF and
 * HEIC are stored as they are, with their size: never rasterised nor re-encoded. The decoded formats are
 * optimised (quality 80, kept only when smaller, as Strapi's `sizeOptimization`) and get the thumbnail (inside
 * 245x156) and one rendition per breakpoint smaller than the image, in the original's format. The full image
 * is decoded twice (optimisation, largest rendition); the smaller renditions are made from the largest one.
 * An image whose pixels cannot be decoded is a 400 "File is not a valid image" (Strapi's answer).
 *
 * @example const image = await processImage({ path, sizeInBytes, hash, name }, header, workDir, DEFAULT_BREAKPOINTS, 50e6);
 */
export async function processImage(
  file: { path: string; sizeInBytes: number; hash: string },
  header: ImageHeader,
  workDir: string,
  breakpoints: Readonly<Record<string, number>>,
  maxPixels: number,
): Promise<ProcessedImage> {
  const { width, height, format } = header;
  const base = { width, height, mime: header.mime, path: file.path, sizeInBytes: file.sizeInBytes, renditions: [] as Rendition[] };
  if (!DECODED_FORMATS.has(format)) return base;
  const open = (input: string): Sharp => sharp(input, { limitInputPixels: maxPixels });
  try {
    if (OPTIMIZED.has(format) && (format !== 'png' || header.pixels <= MAX_QUANTIZED_PIXELS)) {
      const target = path.join(workDir, `optimized-${file.hash}`);
      const info = await open(file.path)[format as OptimizableFormat]({ quality: 80, effort: format === 'png' ? 1 : undefined })
        .timeout({ seconds: OPTIMIZE_TIMEOUT_SECONDS })
        .toFile(target)
        .catch((err: Error) => (err.message.startsWith('timeout') ? null : Promise.reject(err)));
      if (info && info.size <= file.sizeInBytes) Object.assign(base, { path: target, sizeInBytes: info.size });
    }
    // Largest first, from the original; each smaller one from the largest (a 1000 px image decodes in milliseconds).
    const planned = plannedRenditions(width, height, breakpoints).sort((a, b) => b.width * b.height - a.width * a.height);
    let source = base.path;
    for (const [i, r] of planned.entries()) {
      const target = path.join(workDir, `${r.key}_${file.hash}`);
      const info = await open(source).resize({ width: r.width, height: r.height, fit: 'fill' }).toFormat(format as keyof FormatEnum).toFile(target);
      base.renditions.push({ key: r.key, path: target, width: info.width, height: info.height, sizeInBytes: info.size });
      if (i === 0) source = target;
    }
  } catch {
    throw new ApplicationError('File is not a valid image');
  }
  const order = plannedRenditions(width, height, breakpoints).map((r) => r.key);
  base.renditions.sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
  return base;
}
