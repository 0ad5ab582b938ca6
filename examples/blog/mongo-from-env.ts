import type { MongoEngineOptions } from '../../lib';

/**
 * `mongoEngine`'s options for the example from its environment: `MONGODB_URI` (a replica set; one node is
 * enough), and `MONGODB_TRANSACTIONS=false` (or `0`) for a standalone server in local development: writes then
 * run without transactions, which the `CR_UNSAFE_WRITES` warning says at start-up (`true`, `1` or unset: the
 * default, transactions required). Undefined without `MONGODB_URI`: the embedded engine.
 *
 * @example
 * mongoOptionsFromEnv({ MONGODB_URI: 'mongodb://localhost/blog', MONGODB_TRANSACTIONS: 'false' });
 * // { uri: 'mongodb://localhost/blog', transactions: false }
 */
export function mongoOptionsFromEnv(env: NodeJS.ProcessEnv): MongoEngineOptions | undefined {
  const uri = env.MONGODB_URI;
  if (!uri) return undefined;
  const flag = (env.MONGODB_TRANSACTIONS ?? '').trim().toLowerCase();
  if (flag === '' || flag === 'true' || flag === '1') return { uri };
  if (flag === 'false' || flag === '0') return { uri, transactions: false };
  throw new Error(
    `MONGODB_TRANSACTIONS must be true or false (false: a standalone MongoDB server, writes without transactions), not ${JSON.stringify(env.MONGODB_TRANSACTIONS)}`,
  );
}
