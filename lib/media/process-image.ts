import path from 'node:path';
import sharp from 'sharp';
import type { FormatEnum, Metadata, Sharp } from 'sharp';
import { PayloadTooLargeError } from '../errors';

/** Default responsive breakpoints (Strapi's): a format is made when the image is larger than it. */
export const DEFAULT_BREAKPOINTS: Readonly<Record<string, number>> = Object.freeze({ small: 500, medium: 750, large: 1000 });

/**
 * Default most pixels (width x height) of an uploaded image: 100 megapixels. Decoding costs memory and CPU
 * in proportion to the pixels, not to the file size (a 750 KB PNG of 16000x16000 takes ~1 GB and ~20 s), so
 * larger images are refused before any decoding (option `upload.maxPixels`).
 */
export const DEFAULT_MAX_PIXELS = 100_000_000;

/** The thumbnail box (fit inside). */
export const THUMBNAIL = Object.freeze({ width: 245, height: 156 });

const PROCESSED = new Set(['jpeg', 'png', 'webp', 'tiff', 'svg', 'gif', 'avif']);
const RESIZED = new Set(['jpeg', 'png', 'webp', 'tiff', 'gif']);
const OPTIMIZED = new Set(['jpeg', 'png', 'webp', 'tiff', 'avif']);
const MIME_BY_FORMAT: Readonly<Record<string, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
  gif: 'image/gif',
  avif: 'image/avif',
};

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

type OptimizableFormat = 'jpeg' | 'png' | 'webp' | 'tiff' | 'avif';

/** The image's header (no decoding), or null when sharp cannot read it. */
async function readMetadata(file: string): Promise<Metadata | null> {
  try {
    return await sharp(file, { limitInputPixels: false }).metadata();
  } catch {
    return null;
  }
}

/**
 * Refuses an image whose header claims more than `maxPixels` pixels (a 413 naming the file), reading the
 * header only. Anything sharp cannot read passes (it is stored as a plain file).
 *
 * @example
 * await assertImagePixels('/tmp/upload-0', 'photo.png', 100_000_000);
 */
export async function assertImagePixels(file: string, name: string, maxPixels: number): Promise<Metadata | null> {
  const meta = await readMetadata(file);
  if (meta?.width && meta.height && meta.width * meta.height > maxPixels) {
    throw new PayloadTooLargeError(`${name} exceeds the image size limit of ${maxPixels} pixels (${meta.width}x${meta.height}).`);
  }
  return meta;
}

/**
 * Reads an uploaded file with sharp. Not an image (or a format we do not process): `null`. More than
 * `maxPixels` pixels: a 413, before any decoding. Otherwise the original is optimised (quality 80, kept only
 * when smaller, as Strapi's `sizeOptimization`), and the thumbnail (inside 245x156) and one rendition per
 * breakpoint smaller than the image are written to `workDir`. Renditions keep the original's format.
 */
export async function processImage(
  file: { path: string; sizeInBytes: number; hash: string; name?: string },
  workDir: string,
  breakpoints: Readonly<Record<string, number>>,
  maxPixels: number = DEFAULT_MAX_PIXELS,
): Promise<ProcessedImage | null> {
  const meta = await assertImagePixels(file.path, file.name ?? 'The image', maxPixels);
  const format = meta?.format;
  if (!meta || !format || !PROCESSED.has(format) || !meta.width || !meta.height) return null;
  const open = (input: string): Sharp => sharpWithLimit(input, maxPixels);
  try {
    await open(file.path).stats();
  } catch {
    return null;
  }
  const width = meta.width;
  const height = meta.height;
  let source = file.path;
  let sizeInBytes = file.sizeInBytes;
  if (OPTIMIZED.has(format)) {
    const target = path.join(workDir, `optimized-${file.hash}`);
    const info = await open(file.path)[format as OptimizableFormat]({ quality: 80 }).toFile(target);
    if (info.size <= file.sizeInBytes) {
      source = target;
      sizeInBytes = info.size;
    }
  }
  const renditions: Rendition[] = [];
  if (RESIZED.has(format)) {
    if (width > THUMBNAIL.width || height > THUMBNAIL.height) {
      renditions.push(await resize(source, format, workDir, 'thumbnail', file.hash, THUMBNAIL.width, THUMBNAIL.height, maxPixels));
    }
    for (const [key, size] of Object.entries(breakpoints)) {
      if (size < width || size < height) renditions.push(await resize(source, format, workDir, key, file.hash, size, size, maxPixels));
    }
  }
  return { width, height, mime: MIME_BY_FORMAT[format] ?? 'application/octet-stream', path: source, sizeInBytes, renditions };
}

async function resize(
  source: string,
  format: string,
  workDir: string,
  key: string,
  hash: string,
  width: number,
  height: number,
  maxPixels: number,
): Promise<Rendition> {
  const target = path.join(workDir, `${key}_${hash}`);
  const info = await sharpWithLimit(source, maxPixels)
    .resize({ width, height, fit: 'inside' })
    .toFormat(format as keyof FormatEnum)
    .toFile(target);
  return { key, path: target, width: info.width, height: info.height, sizeInBytes: info.size };
}

/** sharp with its own decoding guard (`limitInputPixels`) set to the same limit. */
function sharpWithLimit(input: string, maxPixels: number): Sharp {
  return sharp(input, { limitInputPixels: maxPixels });
}
