import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ProviderFile, StorageProvider, StoredFileRef } from './types';

export interface LocalProviderOptions {
  /** The folder files are written to (created when missing). */
  directory: string;
  /** The public URL prefix the folder is served at. Default `/uploads`. */
  baseUrl?: string;
}

const SAFE_KEY = /^[A-Za-z0-9_-]{1,255}$/;
const SAFE_EXT = /^(\.[A-Za-z0-9]{1,16})?$/;

/** `directory/<hash><ext>`, refusing any key that could leave the folder. */
export function localPath(directory: string, file: { hash: string; ext: string }): string {
  if (!SAFE_KEY.test(file.hash) || !SAFE_EXT.test(file.ext)) {
    throw new Error(`unsafe storage key ${JSON.stringify(file.hash + file.ext)}`);
  }
  return path.join(directory, `${file.hash}${file.ext}`);
}

/**
 * Stores uploads in a local folder; `url` is `<baseUrl>/<hash><ext>`. Serve the folder with `serveUploads`.
 *
 * @example
 * const provider = localProvider({ directory: path.join(__dirname, 'public/uploads') });
 * app.use('/uploads', serveUploads(path.join(__dirname, 'public/uploads')));
 */
export function localProvider(options: LocalProviderOptions): StorageProvider {
  const directory = path.resolve(options.directory);
  const baseUrl = (options.baseUrl ?? '/uploads').replace(/\/+$/, '');
  return {
    name: 'local',
    async upload(file: ProviderFile) {
      const target = localPath(directory, file);
      await mkdir(directory, { recursive: true });
      try {
        await pipeline(file.stream, createWriteStream(target, { flags: 'wx' }));
      } catch (err) {
        await rm(target, { force: true });
        throw err;
      }
      return { url: `${baseUrl}/${file.hash}${file.ext}` };
    },
    async delete(file: StoredFileRef) {
      await rm(localPath(directory, file), { force: true });
    },
  };
}
