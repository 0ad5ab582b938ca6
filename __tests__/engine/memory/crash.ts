import type { Engine } from '../../../lib/engine';

/** The engine's write queue (lib/engine/memory/write-queue.ts), as this helper reaches into it. */
interface Internals {
  queue: {
    file: { close(): Promise<void> } | null;
    steps: { settled(): Promise<void> };
    snapshotting: Promise<void> | null;
  };
}

/**
 * What a process's death does to a durable memory engine, without killing the test process: its files are closed
 * (the journal as written so far, nothing flushed or snapshotted) and so its data file's lock is released. The
 * writes in flight and a background snapshot are let finish first (a death in the middle of those is what the
 * kill -9 tests and the rename images of snapshots.test.ts cover): closing the journal under a running snapshot
 * only made it fail on a closed handle. The engine must not be used afterwards.
 */
export async function abandon(engine: Engine): Promise<void> {
  const internals = (engine as unknown as Internals).queue;
  await internals.steps.settled();
  await internals.snapshotting;
  await internals.steps.settled();
  await internals.file?.close();
}
