import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { writeSnapshot } from './storage/snapshot-file';
import type { WriteQueue } from './write-queue';

/** What a backup holds: the last journal record it includes and the rows per collection. */
export interface BackupResult {
  seq: number;
  collections: Record<string, number>;
}

/**
 * A running memory engine's backup (`EmbeddedEngine.backup`): the state the write queue takes between two writes,
 * written as a snapshot file at `path`, which must not be the engine's own data file (`dataFile`) nor beside it.
 *
 * @example
 * await writeBackup('./backups/content.db', options.file, queue);
 */
export async function writeBackup(path: string, dataFile: string | undefined, queue: WriteQueue): Promise<BackupResult> {
  const target = resolve(path);
  const own = dataFile === undefined ? undefined : resolve(dataFile);
  if (own !== undefined && (target === own || target.startsWith(`${own}.`))) {
    throw new Error(`backup: ${path} is the engine's own data file; write the backup elsewhere`);
  }
  const { seq, image } = await queue.backupImage();
  await mkdir(dirname(target), { recursive: true });
  await writeSnapshot(target, seq, image);
  return { seq, collections: Object.fromEntries(image.map(([name, rows]) => [name, rows.length])) };
}
