/**
 * Child process of durability.test.ts: opens a durable memory engine on argv[2] and writes until killed,
 * printing `ack <id>` after each write is acknowledged. Even ids are single inserts; odd ones are inserted in a
 * transaction together with an update of the row before them. Two readers loop beside the writer.
 */
import { memoryEngine } from '../../../lib/engine/memory/memory-engine';

async function main(): Promise<void> {
  const engine = memoryEngine({ file: process.argv[2]!, snapshotBytes: 8 * 1024 });
  await engine.init([{ name: 'items', indexes: [{ name: 'id', keys: { id: 1 }, unique: true }] }]);
  let id = (await engine.count('items', {})) + 1;
  process.stdout.write(`ready ${id}\n`);
  // Readers beside the writer, as in a server: snapshots (every 8 KiB) happen while they read.
  for (let r = 0; r < 2; r++) {
    void (async () => {
      for (;;) await engine.find('items', { id: { $gte: id - 20 } });
    })();
  }
  for (;;) {
    const row = { id, documentId: `d${id}`, payload: 'x'.repeat(200) };
    if (id % 2 === 0) {
      await engine.insertMany('items', [row]);
    } else {
      await engine.transaction(async () => {
        await engine.insertMany('items', [row]);
        await engine.updateMany('items', { id: id - 1 }, { $set: { touched: true } });
      });
    }
    process.stdout.write(`ack ${id}\n`);
    id++;
  }
}

void main();
