import { randomBytes } from 'node:crypto';
import { memoryEngine, mongoEngine, MONGODB_MAX_DOCUMENT_BYTES, type Engine } from '../../lib';
import { indexCheckedEngine } from './index-eligibility';

/** The MongoDB engines (and their databases) this test file opened; closed and dropped after the file. */
const opened: { engine: Engine; database: string }[] = [];

/**
 * The engine HTTP tests run on: the memory engine (in memory only on purpose: `ephemeral: true`, so no
 * `CR_MEMORY_ONLY` warning; MongoDB's 16 MiB document limit enforced), or MongoDB when `MONGODB_URI` is set. Each call gets its own
 * throwaway database (suites that expect an empty store can run side by side, and a second run starts empty);
 * after the test file, every such engine is closed and its database dropped, even when the suite closes
 * nothing itself (a second `close()` is harmless). Either engine comes wrapped in {@link indexCheckedEngine}: an
 * aggregate whose foreign matches MongoDB could not answer from a declared index fails the test that read it.
 */
export function testEngine(): Engine {
  const uri = process.env.MONGODB_URI;
  // The memory engine refuses result documents over MongoDB's 16 MiB limit, as MongoDB would.
  if (!uri) return indexCheckedEngine(memoryEngine({ ephemeral: true, maxDocumentBytes: MONGODB_MAX_DOCUMENT_BYTES }));
  const database = `content_router_test_${randomBytes(6).toString('hex')}`;
  // MONGODB_TRANSACTIONS=0: a standalone server, run with the engine's unsafe `transactions: false`.
  const transactions = process.env.MONGODB_TRANSACTIONS !== '0';
  const engine = mongoEngine({ uri: withDatabase(uri, database), transactions });
  opened.push({ engine, database });
  return indexCheckedEngine(engine);
}

/** Closes every engine `testEngine()` opened in this file and drops their databases. */
async function closeOpened(): Promise<void> {
  const engines = opened.splice(0);
  await Promise.all(engines.map(({ engine }) => engine.close()));
  const uri = process.env.MONGODB_URI;
  if (!uri || engines.length === 0) return;
  const { createConnection } = await import('mongoose');
  const connection = await createConnection(uri).asPromise();
  try {
    for (const { database } of engines) await connection.useDb(database, { useCache: false }).dropDatabase();
  } finally {
    await connection.close();
  }
}

// Registered when a test file imports this helper (jest's globals exist only under jest, not in scripts).
if (typeof afterAll === 'function') afterAll(closeOpened);

/** Replaces the database path of a MongoDB connection string, keeping its options. */
export function withDatabase(uri: string, database: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/[^?]*)?(\?.*)?$/.exec(uri);
  if (!match) throw new Error(`MONGODB_URI is not a MongoDB connection string: ${uri}`);
  return `${match[1]}/${database}${match[2] ?? ''}`;
}
