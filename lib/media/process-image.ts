import path from 'node:path';
import sharp from 'sharp';
import type { FormatEnum, Metadata } from 'sharp';

/** Default responsive breakpoints (Strapi's): a format is made when the image is larger than it. */
export const DEFAULT_BREAKPOINTS: Readonly<Record<string, number>> = Object.freeze({ small: 500, medium: 750, large: 1000 });

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

/**
 * Reads an uploaded file with sharp. Not an image (or a format we do not process): `null`. Otherwise the
 * original is optimised (quality 80, kept only when smaller, as Strapi's `sizeOptimization`), and the
 * thumbnail (inside 245x156) and one rendition per breakpoint smaller than the image are written to
 * `workDir`. Renditions keep the original's format.
 */
export async function processImage(
  file: { path: string; sizeInBytes: number; hash: string },
  workDir: string,
  breakpoints: Readonly<Record<string, number>>,
): Promise<ProcessedImage | null> {
  let meta: Metadata;
  try {
    meta = await sharp(file.path).metadata();
  } catch {
    return null;
  }
  const format = meta.format;
  if (!format || !PROCESSED.has(format) || !meta.width || !meta.height) return null;
  try {
    await sharp(file.path).stats();
  } catch {
    return null;
  }
  const width = meta.width;
  const height = meta.height;
  let source = file.path;
  let sizeInBytes = file.sizeInBytes;
  if (OPTIMIZED.has(format)) {
    const target = path.join(workDir, `optimized-${file.hash}`);
    const info = await sharp(file.path)[format as OptimizableFormat]({ quality: 80 }).toFile(target);
    if (info.size <= file.sizeInBytes) {
      source = target;
      sizeInBytes = info.size;
    }
  }
  const renditions: Rendition[] = [];
  if (RESIZED.has(format)) {
    if (width > THUMBNAIL.width || height > THUMBNAIL.height) {
      renditions.push(await resize(source, format, workDir, 'thumbnail', file.hash, THUMBNAIL.width, THUMBNAIL.height));
    }
    for (const [key, size] of Object.entries(breakpoints)) {
      if (size < width || size < height) renditions.push(await resize(source, format, workDir, key, file.hash, size, size));
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
): Promise<Rendition> {
  const target = path.join(workDir, `${key}_${hash}`);
  const info = await sharp(source)
    .resize({ width, height, fit: 'inside' })
    .toFormat(format as keyof FormatEnum)
    .toFile(target);
  return { key, path: target, width: info.width, height: info.height, sizeInBytes: info.size };
}
