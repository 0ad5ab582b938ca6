import sharp from 'sharp';
import type { Metadata } from 'sharp';
import { ValidationError } from '../errors';

/**
 * Default most pixels (width x height) of one uploaded image: 50 megapixels. Decoding costs memory and time in
 * proportion to the pixels, not to the file size (a 95 KB PNG of 10000x10000 took 3.9 s and 490 MB), and what
 * the media library makes of an image needs far less: its largest format is 1000 px wide (Strapi's `large`
 * breakpoint). 50 MP still takes the full-size photos of current cameras and phones (8160x6120 = 49.9 MP, a
 * 45 MP full-frame 8256x5504); larger images are refused from their header, before any decoding
 * (option `upload.maxPixels`). Measured costs: docs/security.md, "The cost of one upload".
 */
export const DEFAULT_MAX_PIXELS = 50_000_000;

/**
 * Default most pixels of all the images of one upload request together: 100 megapixels, two of the largest
 * images or eight 12 MP phone photos (option `upload.maxRequestPixels`). Files are processed one after another,
 * so this bounds the time of one request; the memory is that of the largest image.
 */
export const DEFAULT_MAX_REQUEST_PIXELS = 100_000_000;

/** Formats whose pixels are decoded (optimised, resized): they count in the pixel limits. */
export const DECODED_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'tiff', 'gif']);

/** The MIME type of every format sharp reads that the media library stores as an image. */
const MIME_BY_FORMAT: Readonly<Record<string, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  tiff: 'image/tiff',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  avif: 'image/avif',
  heic: 'image/heic',
};

/** What sharp reads from an image's header, without decoding its pixels. */
export interface ImageHeader {
  /** sharp's format (`png`, `jpeg`, ...; `avif` and `heic` for the two HEIF codecs). */
  format: string;
  mime: string;
  width: number;
  height: number;
  /** The pixels processing decodes: width x height for decoded formats, 0 for SVG, AVIF and HEIC (never decoded). */
  pixels: number;
}

/** sharp reports AVIF and HEIC as `heif`; tell them apart by codec. */
function formatOf(meta: Metadata): string | undefined {
  if (meta.format === 'heif') return meta.compression === 'av1' ? 'avif' : 'heic';
  return meta.format;
}

/**
 * The header of an image sharp reads (its format, size and MIME type), or null when the file is not one of
 * the formats the media library stores as images. Reads the header only: an SVG is parsed, never rendered.
 *
 * @example const header = await readImageHeader('/tmp/upload-0'); // { format: 'png', width: 640, ... }
 */
export async function readImageHeader(file: string): Promise<ImageHeader | null> {
  let meta: Metadata;
  try {
    meta = await sharp(file, { limitInputPixels: false }).metadata();
  } catch {
    return null;
  }
  const format = formatOf(meta);
  const mime = format ? MIME_BY_FORMAT[format] : undefined;
  if (!format || !mime || !meta.width || !meta.height) return null;
  const pixels = DECODED_FORMATS.has(format) ? meta.width * meta.height : 0;
  return { format, mime, width: meta.width, height: meta.height, pixels };
}

/** The limits of the images of one request. */
export interface PixelLimits {
  /** Most pixels of one image. */
  maxPixels: number;
  /** Most pixels of all the images of the request. */
  maxRequestPixels: number;
}

/**
 * Refuses, before anything is decoded or stored, an image over `maxPixels` and a request whose images add up to
 * more than `maxRequestPixels`: a 400 ValidationError naming the file (or the total) and the limit.
 *
 * @example assertPixelBudget([{ name: 'a.png', header }], { maxPixels: 50e6, maxRequestPixels: 100e6 });
 */
export function assertPixelBudget(images: readonly { name: string; header: ImageHeader | null }[], limits: PixelLimits): void {
  let total = 0;
  for (const { name, header } of images) {
    if (!header) continue;
    if (header.pixels > limits.maxPixels) {
      throw new ValidationError(`${name} exceeds the image size limit of ${limits.maxPixels} pixels (${header.width}x${header.height}).`, {
        limit: 'maxPixels', option: 'upload.maxPixels', max: limits.maxPixels, file: name, width: header.width, height: header.height,
      });
    }
    total += header.pixels;
  }
  if (total > limits.maxRequestPixels) {
    throw new ValidationError(`The images of this request exceed the limit of ${limits.maxRequestPixels} pixels per request (${total}); upload them in several requests.`, {
      limit: 'maxRequestPixels', option: 'upload.maxRequestPixels', max: limits.maxRequestPixels, pixels: total,
    });
  }
}
