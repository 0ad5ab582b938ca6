import { createReadStream } from 'node:fs';
import { detectMime, readHead } from './detect-mime';
import { bytesToKbytes, fileExtension, generateHash, sanitizeFileName } from './file-name';
import type { ImageHeader } from './image-header';
import { type ProcessedImage, processImage } from './process-image';
import type { ReceivedFile } from './read-upload-request';
import type { FileFormat, FileInfo, FileRow, StorageProvider, StoredFileRef } from './types';

/** The row fields that describe a stored file's content (everything but ids, info and timestamps). */
export type StoredContent = Pick<FileRow, 'width' | 'height' | 'formats' | 'hash' | 'ext' | 'mime' | 'size' | 'url' | 'provider' | 'provider_metadata'>;

export interface StoreContext {
  provider: StorageProvider;
  breakpoints: Readonly<Record<string, number>>;
  workDir: string;
  /** Most pixels of an image (see DEFAULT_MAX_PIXELS): sharp's own decoding guard. */
  maxPixels: number;
  /** Runs the image work, one image at a time per media service (see createSlots). */
  imageSlot<T>(fn: () => Promise<T>): Promise<T>;
}

/** The name a file is saved under: `fileInfo.name` when given, else the client file name (both sanitised). */
export function fileName(received: ReceivedFile, info: FileInfo): string {
  return info.name ? sanitizeFileName(info.name) : received.filename;
}

/** A received file made ready to store: its type, storage key and, for an image, its processed renditions. */
export interface PreparedFile {
  name: string;
  mime: string;
  ext: string;
  hash: string;
  /** The file to store as the original and its size. */
  path: string;
  sizeInBytes: number;
  image: ProcessedImage | null;
}

/**
 * Analyses one received file. `header` is what sharp read of it (readImageHeader, checked against the pixel
 * limits by the caller): an image is processed (optimisation, thumbnail, breakpoints) and keeps the type sharp
 * detected; any other file gets the type its bytes show (detectMime). `keep` (a replace) reuses an existing hash
 * and extension so the URL stays. Nothing is stored yet: a file refused here (400) leaves the provider untouched.
 */
export async function prepareFile(
  received: ReceivedFile,
  name: string,
  ctx: StoreContext,
  header: ImageHeader | null,
  keep?: { hash: string; ext: string },
): Promise<PreparedFile> {
  const mime = header ? header.mime : detectMime(received.mime, await readHead(received.path));
  const ext = keep?.ext ?? fileExtension(received.filename, mime);
  const hash = keep?.hash ?? generateHash(name, ext);
  let image: ProcessedImage | null = null;
  if (header) {
    const file = { path: received.path, sizeInBytes: received.sizeInBytes, hash };
    image = await ctx.imageSlot(() => processImage(file, header, ctx.workDir, ctx.breakpoints, ctx.maxPixels));
  }
  return { name, mime, ext, hash, path: image?.path ?? received.path, sizeInBytes: image?.sizeInBytes ?? received.sizeInBytes, image };
}

/**
 * Streams a prepared file and its renditions to the provider. On a provider failure the objects already stored
 * are deleted again.
 */
export async function putFile(file: PreparedFile, provider: StorageProvider): Promise<StoredContent> {
  const { name, mime, ext, hash, image } = file;
  const stored: StoredFileRef[] = [];
  const put = async (key: string, path: string, sizeInBytes: number) => {
    const result = await provider.upload({ hash: key, ext, mime, sizeInBytes, stream: createReadStream(path) });
    stored.push({ hash: key, ext, url: result.url, provider_metadata: result.provider_metadata });
    return result;
  };
  try {
    const main = await put(hash, file.path, file.sizeInBytes);
    let formats: Record<string, FileFormat> | null = null;
    for (const r of image?.renditions ?? []) {
      const formatHash = `${r.key}_${hash}`;
      const result = await put(formatHash, r.path, r.sizeInBytes);
      formats ??= {};
      formats[r.key] = {
        name: `${r.key}_${name}`, hash: formatHash, ext, mime, path: null, width: r.width, height: r.height,
        size: bytesToKbytes(r.sizeInBytes), sizeInBytes: r.sizeInBytes, url: result.url,
      };
    }
    return {
      width: image?.width ?? null,
      height: image?.height ?? null,
      formats,
      hash,
      ext,
      mime,
      size: bytesToKbytes(file.sizeInBytes),
      url: main.url,
      provider: provider.name,
      provider_metadata: main.provider_metadata ?? null,
    };
  } catch (err) {
    await Promise.allSettled(stored.map((f) => provider.delete(f)));
    throw err;
  }
}

/** Every stored object of a file: the original and each format. */
export function storedObjects(row: Pick<FileRow, 'hash' | 'ext' | 'url' | 'provider_metadata' | 'formats'>): StoredFileRef[] {
  const refs: StoredFileRef[] = [{ hash: row.hash, ext: row.ext, url: row.url, provider_metadata: row.provider_metadata }];
  for (const f of Object.values(row.formats ?? {})) refs.push({ hash: f.hash, ext: f.ext, url: f.url });
  return refs;
}
