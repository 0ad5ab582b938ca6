import { createReadStream } from 'node:fs';
import { bytesToKbytes, fileExtension, generateHash, sanitizeFileName } from './file-name';
import { processImage } from './process-image';
import type { ReceivedFile } from './read-upload-request';
import type { FileFormat, FileInfo, FileRow, StorageProvider, StoredFileRef } from './types';

/** The row fields that describe a stored file's content (everything but ids, info and timestamps). */
export type StoredContent = Pick<FileRow, 'width' | 'height' | 'formats' | 'hash' | 'ext' | 'mime' | 'size' | 'url' | 'provider' | 'provider_metadata'>;

export interface StoreContext {
  provider: StorageProvider;
  breakpoints: Readonly<Record<string, number>>;
  workDir: string;
  /** Most pixels of an image (see DEFAULT_MAX_PIXELS). */
  maxPixels: number;
}

/** The name a file is saved under: `fileInfo.name` when given, else the client file name (both sanitised). */
export function fileName(received: ReceivedFile, info: FileInfo): string {
  return info.name ? sanitizeFileName(info.name) : received.filename;
}

/**
 * Analyses one received file (sharp for images: optimisation, thumbnail, breakpoints) and streams it and
 * its renditions to the provider. `keep` (a replace) reuses an existing hash and extension so the URL stays.
 * On a provider failure the objects already stored are deleted again.
 */
export async function storeFile(received: ReceivedFile, name: string, ctx: StoreContext, keep?: { hash: string; ext: string }): Promise<StoredContent> {
  const ext = keep?.ext ?? fileExtension(received.filename, received.mime);
  const hash = keep?.hash ?? generateHash(name, ext);
  const image = await processImage({ path: received.path, sizeInBytes: received.sizeInBytes, hash, name }, ctx.workDir, ctx.breakpoints, ctx.maxPixels);
  const mime = image?.mime ?? received.mime;
  const stored: StoredFileRef[] = [];
  const put = async (key: string, path: string, sizeInBytes: number) => {
    const result = await ctx.provider.upload({ hash: key, ext, mime, sizeInBytes, stream: createReadStream(path) });
    stored.push({ hash: key, ext, url: result.url, provider_metadata: result.provider_metadata });
    return result;
  };
  try {
    const main = await put(hash, image?.path ?? received.path, image?.sizeInBytes ?? received.sizeInBytes);
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
      size: bytesToKbytes(image?.sizeInBytes ?? received.sizeInBytes),
      url: main.url,
      provider: ctx.provider.name,
      provider_metadata: main.provider_metadata ?? null,
    };
  } catch (err) {
    await Promise.allSettled(stored.map((f) => ctx.provider.delete(f)));
    throw err;
  }
}

/** Every stored object of a file: the original and each format. */
export function storedObjects(row: Pick<FileRow, 'hash' | 'ext' | 'url' | 'provider_metadata' | 'formats'>): StoredFileRef[] {
  const refs: StoredFileRef[] = [{ hash: row.hash, ext: row.ext, url: row.url, provider_metadata: row.provider_metadata }];
  for (const f of Object.values(row.formats ?? {})) refs.push({ hash: f.hash, ext: f.ext, url: f.url });
  return refs;
}
