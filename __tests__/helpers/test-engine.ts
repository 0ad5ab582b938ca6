import { randomBytes } from 'node:crypto';
import { memoryEngine, mongoEngine, MONGODB_MAX_DOCUMENT_BYTES, type Engine } from '../../lib';
import { COUNTERS } from '../../lib/engine/memory/memory-engine';
import { afterTestFile } from './after-test-file';
import { describe as describeDifference, fastPathCheckedEngine, type FastPathDifference } from './fast-path-check';
import { indexCheckedEngine } from './index-eligibility';

/** What this test file opened: closing it drops its data, or its MongoDB `database` is dropped after. */
interface Opened {
  close(): Promise<void>;
  database?: string;
}

/** What this test file opened; disposed of after the file (see {@link afterTestFile}). */
const opened: Opened[] = [];
let registered = false;
let loadedMongoose: typeof import('mongoose') | undefined;

/**
 * The engine HTTP tests run on: {@link bareTestEngine} wrapped in {@link indexCheckedEngine}, so that an aggregate
 * whose foreign matches MongoDB could not answer from a declared index fails the test that read it (the pipelines
 * the compiler emits must all be index-eligible). The engine contract runs on the bare engine instead: its own
 * pipelines test operator semantics and are deliberately not index-eligible.
 *
 * @example
 * const { app } = await createTestApp({ engine: testEngine() });
 */
export function testEngine(): Engine {
  const bare = bareTestEngine();
  return indexCheckedEngine(checkingFastPaths() ? fastPathCheckedEngine(bare, trackDifferences()) : bare);
}

/**
 * Whether every aggregate of the HTTP suites and the corpus replay runs with each fast path of the memory engine
 * switched off in turn and must give the same answer (helpers/fast-path-check.ts): always on the memory engine,
 * unless `CR_FAST_PATHS_CHECK=0` (a quicker run while debugging something else).
 */
function checkingFastPaths(): boolean {
  return process.env.CR_FAST_PATHS_CHECK !== '0' && !process.env.MONGODB_URI;
}

/** The differences found in this test file, reported (the file fails) once it has finished. */
let differences: FastPathDifference[] | undefined;

function trackDifferences(): FastPathDifference[] {
  if (!differences) {
    const found: FastPathDifference[] = (differences = []);
    afterTestFile(() => {
      if (found.length > 0) throw new Error(`${found.length} answers changed with a fast path off:\n${found.map(describeDifference).join('\n\n')}`);
    });
  }
  return differences;
}

/**
 * A fresh engine of its own: the memory engine (in memory only on purpose: `ephemeral: true`, so no
 * `CR_MEMORY_ONLY` warning; MongoDB's 16 MiB document limit enforced), or MongoDB when `MONGODB_URI` is set, in a
 * throwaway database (suites that expect an empty store can run side by side, and a second run starts empty).
 * After the test file, once its own `afterAll` hooks have run (they may still read), every such engine is closed
 * and its data dropped (the database on MongoDB, every collection on the memory engine), even when the suite
 * closed nothing itself or an assertion failed (a second `close()` is harmless).
 *
 * @example
 * runEngineContract('mongo', () => bareTestEngine());
 */
export function bareTestEngine(): Engine {
  const uri = process.env.MONGODB_URI;
  return uri ? mongoTestEngine(testDatabaseUri()) : track(openMemory()).engine;
}

function track<T extends Opened>(entry: T): T {
  if (!registered) {
    afterTestFile(closeTestEngines);
    registered = true;
  }
  opened.push(entry);
  return entry;
}

/**
 * `MONGODB_URI` with a throwaway database of its own (`content_router_test_<random>`), dropped after the test file
 * (see {@link closeTestEngines}): for engines opened with {@link mongoTestEngine} and for child processes given it.
 *
 * @example
 * const uri = testDatabaseUri();
 * const [a, b] = [mongoTestEngine(uri), mongoTestEngine(uri)]; // two connections to one database
 */
export function testDatabaseUri(): string {
  const uri = process.env.MONGODB_URI;
  if (!uri) throw new Error('testDatabaseUri: MONGODB_URI is not set');
  const database = `content_router_test_${randomBytes(6).toString('hex')}`;
  // Loaded now, while the file runs: the clean-up may run in the environment's teardown (a test file whose import
  // threw), when Jest no longer loads modules.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loadedMongoose ??= require('mongoose') as typeof import('mongoose');
  track({ close: async () => undefined, database });
  return withDatabase(uri, database);
}

/**
 * A `mongoEngine` of its own (its own connection) on `uri` (from {@link testDatabaseUri}), closed after the test file.
 *
 * @example
 * const engine = mongoTestEngine(testDatabaseUri());
 */
export function mongoTestEngine(uri: string): Engine {
  // MONGODB_TRANSACTIONS=0: a standalone server, run with the engine's unsafe `transactions: false`.
  const transactions = process.env.MONGODB_TRANSACTIONS !== '0';
  const engine = mongoEngine({ uri, transactions });
  track({ close: () => engine.close() });
  return engine;
}

function openMemory(): Opened & { engine: Engine } {
  // The memory engine refuses result documents over MongoDB's 16 MiB limit, as MongoDB would.
  const engine = memoryEngine({ ephemeral: true, maxDocumentBytes: MONGODB_MAX_DOCUMENT_BYTES });
  const names = new Set<string>([COUNTERS]);
  const tracked = new Proxy(engine, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (key === 'init') for (const { name } of args[0] as { name: string }[]) names.add(name);
        else if (typeof args[0] === 'string') names.add(args[0]);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const close = async (): Promise<void> => {
    for (const name of names) await engine.deleteMany(name, {});
    await engine.close();
  };
  return { engine: tracked, close };
}

/**
 * Closes every engine this test file opened and drops its data (MongoDB: every database, through one connection):
 * registered with {@link afterTestFile} on the first `bareTestEngine()` of the file, so it runs after the file's
 * own `afterAll` hooks.
 */
export async function closeTestEngines(): Promise<void> {
  const entries = opened.splice(0);
  const closed = await Promise.allSettled(entries.map((entry) => entry.close()));
  const databases = entries.flatMap((entry) => (entry.database ? [entry.database] : []));
  const uri = process.env.MONGODB_URI;
  if (uri && databases.length > 0) await dropDatabases(uri, databases);
  const errors = closed.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
  if (errors.length > 0) throw errors.length === 1 ? errors[0] : new AggregateError(errors, 'closing the test engines failed');
}

async function dropDatabases(uri: string, databases: readonly string[]): Promise<void> {
  const { createConnection } = loadedMongoose!;
  const connection = await createConnection(uri).asPromise();
  try {
    for (const database of databases) await connection.useDb(database, { useCache: false }).dropDatabase();
  } finally {
    await connection.close();
  }
}

/** Replaces the database path of a MongoDB connection string, keeping its options. */
export function withDatabase(uri: string, database: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/[^?]*)?(\?.*)?$/.exec(uri);
  if (!match) throw new Error(`MONGODB_URI is not a MongoDB connection string: ${uri}`);
  return `${match[1]}/${database}${match[2] ?? ''}`;
}
