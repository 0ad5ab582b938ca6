import { ConfigurationError, emitWarning } from '../../errors';

/** The part of a driver `Db` the start-up check uses. */
export interface HelloDb {
  admin(): { command(command: { hello: 1 }): Promise<Record<string, unknown>> };
}

/** The code of the warning emitted when a host turns transactions off. */
export const UNSAFE_WRITES_WARNING = 'CR_UNSAFE_WRITES';

/**
 * The message `router.ready` rejects with on a deployment without transactions. The manual: standalone servers
 * do not support transactions; replica sets and sharded clusters do
 * (https://www.mongodb.com/docs/manual/core/transactions-production-consideration/#availability).
 */
export const STANDALONE_MESSAGE =
  'mongoEngine: this MongoDB server is a standalone server, which has no transactions: every write would be '
  + 'applied piecemeal (a failing write leaves part of itself behind). Run it as a replica set; one node is enough: '
  + 'start it with `mongod --replSet rs0`, run `rs.initiate()` once in mongosh, and add `?replicaSet=rs0` to the '
  + 'connection string (https://www.mongodb.com/docs/manual/tutorial/convert-standalone-to-replica-set/). '
  + 'To write without transactions anyway (unsafe), pass `mongoEngine({ transactions: false })`.';

/**
 * Decides at start-up whether writes use transactions. `transactions` is the engine option:
 * - `true` (default): the deployment must support them (a replica set, `hello.setName`, or a `mongos`,
 *   `hello.msg === 'isdbgrid'`); anything else rejects with a `ConfigurationError` `CR_NO_TRANSACTIONS`
 *   ({@link STANDALONE_MESSAGE}).
 * - `false`: writes run without transactions, and a process warning ({@link UNSAFE_WRITES_WARNING}) says so.
 *   `process.emitWarning` rather than `console.warn`: it is Node's channel for "this works but is dangerous",
 *   printed to stderr by default, observable with `process.on('warning')`, filterable by its code, and it needs no
 *   logger from the host.
 *
 * @example
 * const transactional = await checkTransactions(db, options.transactions); // throws on a standalone server
 */
export async function checkTransactions(db: HelloDb, transactions: boolean | undefined): Promise<boolean> {
  if (transactions === false) {
    emitWarning(
      UNSAFE_WRITES_WARNING,
      'mongoEngine({ transactions: false }): writes run WITHOUT transactions. A write that fails half-way keeps '
      + 'what it wrote before failing, and two concurrent first writes of a single type can create two documents. Use a replica set.',
    );
    return false;
  }
  const hello = await db.admin().command({ hello: 1 });
  if (typeof hello.setName === 'string' || hello.msg === 'isdbgrid') return true;
  throw new ConfigurationError('CR_NO_TRANSACTIONS', STANDALONE_MESSAGE);
}

/**
 * Checks the `transactions` option when the engine is created (an old `'auto'` is refused with a hint).
 *
 * @example
 * assertTransactionsOption(options.transactions);
 */
export function assertTransactionsOption(value: unknown): void {
  if (value === undefined || typeof value === 'boolean') return;
  throw new Error(
    `mongoEngine: \`transactions\` must be true (the default: a replica set or sharded cluster is required) or false `
    + `(unsafe writes without transactions), not ${JSON.stringify(value)}`,
  );
}
