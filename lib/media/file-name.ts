import { randomBytes } from 'node:crypto';
import path from 'node:path';

/** Longest file name kept (bytes of a name on most file systems). */
export const MAX_NAME_LENGTH = 255;

const UNSAFE_CHARS = /[<>:"/\\|?*\u0000-\u001F\u007F-\u009F\u2028\u2029]/g;
const EXT = /^\.[A-Za-z0-9]{1,16}$/;

const MIME_EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/avif': '.avif',
  'image/tiff': '.tiff',
  'image/svg+xml': '.svg',
  'text/plain': '.txt',
  'text/csv': '.csv',
  'application/pdf': '.pdf',
  'application/json': '.json',
};

/**
 * A client-supplied file name made harmless: only the last path segment, no control or reserved characters,
 * never `.`/`..`, at most 255 characters (the extension is kept). Empty results become `file`.
 *
 * @example sanitizeFileName('../../etc/passwd\u0000.png') // 'passwd.png'
 */
export function sanitizeFileName(raw: string): string {
  const lastSegment = raw.split(/[/\\]/).pop() ?? '';
  let name = lastSegment.normalize('NFC').replace(UNSAFE_CHARS, '').trim();
  name = name.replace(/^\.+/, '');
  if (name === '') return 'file';
  if (name.length > MAX_NAME_LENGTH) {
    const ext = path.extname(name);
    const keep = EXT.test(ext) ? ext : '';
    name = name.slice(0, MAX_NAME_LENGTH - keep.length) + keep;
  }
  return name;
}

/** The extension of `name` (`.png`) when it is a plain one, else the one of `mime`, else ''. */
export function fileExtension(name: string, mime: string): string {
  const ext = path.extname(name);
  if (EXT.test(ext)) return ext;
  return MIME_EXTENSIONS[mime] ?? '';
}

/** The extension Strapi would give a file of this MIME type ('' when unknown). */
export function extensionForMime(mime: string): string {
  return MIME_EXTENSIONS[mime] ?? '';
}

/** A client MIME type if well-formed (`type/subtype`), lower-cased; `application/octet-stream` otherwise. */
export function sanitizeMime(raw: string | undefined): string {
  const mime = (raw ?? '').trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(mime) ? mime : 'application/octet-stream';
}

/**
 * Strapi's `nameToSlug(name, { separator: '_', lowercase: false })`: accents dropped, camelCase split,
 * every run of other characters becomes `_`.
 *
 * @example slugifyName('logo-named') // 'logo_named'
 */
export function slugifyName(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ');
  const decamelized = ascii
    .replace(/([A-Z]{2,})(\d+)/g, '$1 $2')
    .replace(/([a-z\d]+)([A-Z]{2,})/g, '$1 $2')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-rt-z\d]+)/g, '$1 $2');
  return decamelized.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

/**
 * `hash` of a new file: the slug of its name without extension, `_`, 10 random hex characters. Only
 * `[A-Za-z0-9_]`, so it is safe as a storage key.
 *
 * @example generateHash('logo-named.png', '.png') // 'logo_named_8e7582eb21'
 */
export function generateHash(name: string, ext: string, random: () => string = randomSuffix): string {
  const base = slugifyName(path.basename(name, ext)).slice(0, 200);
  return `${base === '' ? 'file' : base}_${random()}`;
}

function randomSuffix(): string {
  return randomBytes(5).toString('hex');
}

/** Bytes to KB with two decimals, as Strapi stores `size`. */
export function bytesToKbytes(bytes: number): number {
  return Math.round((bytes / 1000) * 100) / 100;
}

/** `209715200` -> `210 MB` (Strapi's `bytesToHumanReadable`). */
export function bytesToHumanReadable(bytes: number): string {
  const units = ['Bytes', 'KB', 'MB', 'GB', 'TB'];
  if (bytes <= 0) return '0 Bytes';
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1000)));
  return `${Math.round(bytes / 1000 ** i)} ${units[i]}`;
}
