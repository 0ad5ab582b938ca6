import { access, link, mkdir, open, readdir, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Engine } from '../../engine';
import { localProvider, type StorageProvider } from '../../media';
import { TransferError } from '../transfer-error';
import { recordObject, recordedObjects, recordStoredObject, type ImportMarker } from './import-marker';

/** Where an import's files go until its commit point, and how they move in (or go) after it. */
export interface StagedUploads {
  /** What the write pass stores each file with. */
  readonly provider: StorageProvider;
}

/** The folder of the local uploads folder where an import stages its files (a dot folder: serveUploads never serves it). */
export const stagingFolder = (uploads: string, token: string): string => path.join(uploads, `.import-${token}`);

const exists = (file: string): Promise<boolean> => access(file).then(() => true, () => false);

/**
 * The local uploads folder's staging: files are written into `<uploads>/.import-<token>/` (same file system, so
 * they move in by a link and an unlink), and a name the uploads folder already holds is refused before anything
 * is written, as the local provider refuses to overwrite a file.
 */
export function stagedLocalUploads(uploads: string, marker: ImportMarker): StagedUploads {
  const staging = stagingFolder(uploads, marker.token);
  const stage = localProvider({ directory: staging });
  return {
    provider: {
      name: stage.name,
      async upload(file) {
        const name = `${file.hash}${file.ext}`;
        if (await exists(path.join(uploads, name))) throw new TransferError(`the uploads folder already holds ${name}: import into an empty uploads folder`);
        return stage.upload(file);
      },
      delete: (file) => stage.delete(file),
    },
  };
}

/**
 * A storage provider's staging: each object is recorded in the marker before it is stored, so that a rollback
 * (now, or by the next import after a crash) deletes it. A provider has no rename: its objects are in place at once.
 */
export function recordedUploads(engine: Engine, provider: StorageProvider, marker: ImportMarker): StagedUploads {
  return {
    provider: {
      name: provider.name,
      async upload(file) {
        await recordObject(engine, marker, { hash: file.hash, ext: file.ext, url: '' });
        const stored = await provider.upload(file);
        await recordStoredObject(engine, marker, { hash: file.hash, ext: file.ext, url: stored.url, provider_metadata: stored.provider_metadata ?? null });
        return stored;
      },
      delete: (file) => provider.delete(file),
    },
  };
}

/** fsyncs a folder, so that the names moved into it survive a power loss before the marker goes. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Moves the staged files of `marker` into its uploads folder (after the commit point), then removes the staging
 * folder. Each move is a link then an unlink, which never overwrites a file: a move interrupted in between is
 * finished by the next run.
 */
export async function moveStagedFiles(marker: ImportMarker): Promise<void> {
  if (!marker.staging || !marker.uploads) return;
  const names = await readdir(marker.staging).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  await mkdir(marker.uploads, { recursive: true });
  for (const name of names) {
    const from = path.join(marker.staging, name);
    await link(from, path.join(marker.uploads, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    await unlink(from);
  }
  if (names.length) await syncFolder(marker.uploads);
  await rm(marker.staging, { recursive: true, force: true });
}

/** Removes what an import stored before its commit point: the staging folder, or the objects recorded for a provider. */
export async function discardStagedFiles(engine: Engine, marker: ImportMarker, provider: StorageProvider | undefined): Promise<void> {
  if (marker.staging) await rm(marker.staging, { recursive: true, force: true });
  const objects = await recordedObjects(engine);
  if (objects.length && !provider) throw new TransferError(`the interrupted import stored ${objects.length} file(s) with a storage provider: give the same provider to take them back`);
  for (const object of objects) await provider!.delete(object);
}
