/**
 * Child process of snapshots.test.ts: one writer and four readers on a durable memory engine whose journal is
 * snapshotted every `argv[3]` bytes. The readers call `engine.find` in a tight loop (each call resolves in
 * microtasks when no write is running), the shape that once hung the engine at its first snapshot. Prints
 * `done <reads>` and exits 0; a hang is the parent's timeout.
 */
import { memoryEngine } from '../../../lib/engine/memory/memory-engine';

async function main(): Promise<void> {
  const engine = memoryEngine({ file: process.argv[2]!, snapshotBytes: Number(process.argv[3]) });
  await engine.init([{ name: 'items', indexes: [{ name: 'id', keys: { id: 1 }, unique: true }] }]);
  let writing = true;
  const readers = [0, 1, 2, 3].map(async () => {
    let reads = 0;
    while (writing) {
      await engine.find('items', { id: { $gte: 0 } });
      reads++;
    }
    return reads;
  });
  for (let id = 1; id <= 400; id++) {
    await engine.insertMany('items', [{ id, payload: 'x'.repeat(100) }]);
    if (id % 3 === 0) await engine.updateMany('items', { id: id - 1 }, { $set: { touched: true } });
  }
  writing = false;
  const reads = (await Promise.all(readers)).reduce((a, b) => a + b, 0);
  await engine.close();
  process.stdout.write(`done ${reads}\n`);
}

void main();
