import { randomBytes } from 'node:crypto';
import { memoryEngine, mongoEngine, type Engine } from '../../lib';

/**
 * The engine HTTP tests run on: the memory engine, or MongoDB when `MONGODB_URI` is set (each call gets its own
 * throwaway database, so suites that expect an empty store can run side by side).
 */
export function testEngine(): Engine {
  const uri = process.env.MONGODB_URI;
  if (!uri) return memoryEngine();
  // MONGODB_TRANSACTIONS=0: a standalone server, run with the engine's unsafe `transactions: false`.
  const transactions = process.env.MONGODB_TRANSACTIONS !== '0';
  return mongoEngine({ uri: withDatabase(uri, `content_router_test_${randomBytes(6).toString('hex')}`), transactions });
}

/** Replaces the database path of a MongoDB connection string, keeping its options. */
export function withDatabase(uri: string, database: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/[^?]*)?(\?.*)?$/.exec(uri);
  if (!match) throw new Error(`MONGODB_URI is not a MongoDB connection string: ${uri}`);
  return `${match[1]}/${database}${match[2] ?? ''}`;
}
