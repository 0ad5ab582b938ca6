import { open } from 'node:fs/promises';
import { filetypemime } from 'magic-bytes.js';
import { ApplicationError } from '../errors';

/** Bytes read from the start of a file to find its signature (what file-type, and so Strapi, reads). */
export const SIGNATURE_BYTES = 4100;

/** Image formats sharp decodes: a file with one of their signatures that sharp cannot read is a broken image. */
const DECODABLE_SIGNATURES = new Set(['image/png', 'image/apng', 'image/jpeg', 'image/gif', 'image/webp', 'image/tiff']);

/** Containers that hold audio as well as video (an `.m4a` is an MP4, Ogg and WebM carry either). */
const MEDIA_CONTAINERS = new Set(['video/mp4', 'audio/mp4', 'video/quicktime', 'video/3gpp', 'video/x-matroska', 'audio/x-matroska', 'video/webm', 'audio/webm', 'application/ogg']);

type Category = 'image' | 'video' | 'audio' | 'other';

const categoryOf = (mime: string): Category => {
  const top = mime.slice(0, mime.indexOf('/'));
  return top === 'image' || top === 'video' || top === 'audio' ? top : 'other';
};

/** Whether signature `sig` says the file is of claimed `category` (image, video or audio). */
const confirms = (sig: string, category: Category): boolean =>
  categoryOf(sig) === category || ((category === 'video' || category === 'audio') && MEDIA_CONTAINERS.has(sig));

/** The first `SIGNATURE_BYTES` of a file. */
export async function readHead(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(SIGNATURE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SIGNATURE_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The MIME type to store for a file sharp did not read as an image, from its first bytes (magic-bytes.js's
 * signatures) and the client's claim:
 * - a claim of `image/*`, `video/*` or `audio/*` is kept only when a signature of that kind confirms it (an MP4,
 *   Matroska or Ogg container confirms audio and video alike); otherwise the signature's type, or
 *   `application/octet-stream` when the bytes match none: an HTML page sent as `x.png` is not an image;
 * - any other claim is kept unless a signature of another non-media type says otherwise (text formats have
 *   none); a generic `application/octet-stream` becomes the signature's type (a video sent without a type is a
 *   video), as Strapi stores the detected type.
 * Bytes that carry the signature of a format sharp decodes (PNG, JPEG, GIF, WebP, TIFF) but that sharp could not
 * read are a broken image: 400 "File is not a valid image", as Strapi answers for an image it cannot decode.
 *
 * @example detectMime('image/png', new TextEncoder().encode('<!doctype html>')) // 'application/octet-stream'
 */
export function detectMime(claimed: string, head: Uint8Array): string {
  const signatures = [...new Set(filetypemime(head).filter((m) => /^[a-z]+\/[\w.+-]+$/.test(m)))];
  if (signatures.some((s) => DECODABLE_SIGNATURES.has(s))) throw new ApplicationError('File is not a valid image');
  if (signatures.includes(claimed)) return claimed;
  const category = categoryOf(claimed);
  if (category !== 'other') {
    if (signatures.some((s) => confirms(s, category))) return claimed;
    return signatures[0] ?? 'application/octet-stream';
  }
  // A weak signature (`BM` is a bitmap) never turns a named non-media type into an image, a video or a sound.
  const other = claimed === 'application/octet-stream' ? signatures[0] : signatures.find((s) => categoryOf(s) === 'other');
  return other ?? claimed;
}
