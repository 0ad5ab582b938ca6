/**
 * A child process for the interrupted-import tests: imports the blog fixture (or the export given) into a store and
 * kills itself with SIGKILL just before its step number KILL_AT (every engine write and every file moved into the
 * uploads folder is a step), as a crash or kill -9 would stop it. Without KILL_AT it imports and prints the number
 * of steps it took. The store: the memory engine's data file (STORE_FILE), or MongoDB (STORE_URI).
 * BATCHES=1: the write pass without its one transaction (as on MongoDB, where a transaction is bounded).
 */
import fsp from 'node:fs/promises';
import { memoryEngine, mongoEngine, type Engine } from '../../lib';
import { importStrapiExport } from '../../lib/transfer';
import { loadBlogModel } from '../../examples/blog/model';

const killAt = process.env.KILL_AT === undefined ? Infinity : Number(process.env.KILL_AT);
let steps = 0;
function step(): void {
  steps++;
  if (steps === killAt) process.kill(process.pid, 'SIGKILL');
}

const WRITES = new Set(['insertMany', 'updateMany', 'replaceOne', 'deleteMany', 'nextId']);

/** The engine, each write a step; with BATCHES=1 it says it takes no bulk transaction. */
function counted(engine: Engine): Engine {
  return new Proxy(engine, {
    get(target, key, receiver) {
      if (key === 'bulkTransactionBytes' && process.env.BATCHES === '1') return undefined;
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        // The marker's heartbeat (every 30 s) is no step: a slow run takes the same steps as a quick one.
        const heartbeat = key === 'updateMany' && (args[2] as { $set?: { heartbeat?: unknown } }).$set?.heartbeat !== undefined;
        if (WRITES.has(String(key)) && !heartbeat) step();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

async function main(): Promise<void> {
  // Each staged file moved into the uploads folder (link, then unlink) is a step too.
  const unlink = fsp.unlink;
  fsp.unlink = (async (...args: Parameters<typeof unlink>) => {
    step();
    return unlink(...args);
  }) as typeof unlink;
  const [file, uploads] = process.argv.slice(2);
  const inner = process.env.STORE_URI ? mongoEngine({ uri: process.env.STORE_URI, transactions: process.env.MONGODB_TRANSACTIONS !== '0' }) : memoryEngine({ file: process.env.STORE_FILE! });
  const engine = counted(inner);
  const model = loadBlogModel();
  const result = await importStrapiExport({ engine, contentTypes: model.contentTypes, components: model.components, i18n: { locales: ['en', 'fr', 'de'], defaultLocale: 'en' } }, file!, { uploads: { directory: uploads! } });
  await inner.close();
  process.stdout.write(`${JSON.stringify({ steps, recovered: result.recovered ?? null })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
