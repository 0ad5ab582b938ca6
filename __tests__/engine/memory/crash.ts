import type { Engine } from '../../../lib/engine';

/**
 * What a process's death does to a durable memory engine, without killing the test process: its files are closed
 * (the journal as written so far, nothing flushed or snapshotted) and so its data file's lock is released. The
 * engine must not be used afterwards.
 */
export async function abandon(engine: Engine): Promise<void> {
  const file = (engine as unknown as { file: { close(): Promise<void> } | null }).file;
  await file?.close();
}
