import { redactCredentials } from '../../errors';
import type { Logger } from '../../errors/logger';

/**
 * How long the driver looks for a server before an operation, and the first connection, fail: for the engine's
 * own connection (`uri`). The driver waits 30000 ms by default; mongoose's documentation: "`mongoose.connect()`
 * will retry for 30 seconds by default (default `serverSelectionTimeoutMS`) before erroring out. To get faster
 * feedback on failed operations, you can reduce `serverSelectionTimeoutMS` to 5000"
 * (https://mongoosejs.com/docs/connections.html#options, and #server-selection: "Timeout after 5s instead of
 * 30s"). The Node driver's FAQ: use serverSelectionTimeoutMS "to fail when MongoClient.connect is unable to
 * establish a connection" (https://www.mongodb.com/docs/drivers/node/current/faq/). 5000 ms is also the
 * router's `readyWaitMS`: a request waiting for start-up gets the real answer, not "still starting".
 */
export const DEFAULT_SERVER_SELECTION_TIMEOUT_MS = 5_000;
/**
 * How long establishing one connection may take: "the time in milliseconds for an individual connection from
 * your connection pool to establish a TCP connection to the MongoDB server before timing out", default 30000;
 * "ensure that the connectTimeoutMS setting is not lower than the longest network latency you have to a member
 * of the set" (https://www.mongodb.com/docs/drivers/node/current/faq/). The driver's monitor also uses it as its
 * socket timeout (mongodb 7 `lib/sdam/monitor.js`), so a low value would mark a busy server unknown. 10000 ms:
 * a host that never answers is known to be down within it, a slow link still connects.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

export interface DriverTimeouts {
  serverSelectionTimeoutMS?: number;
  connectTimeoutMS?: number;
}

/**
 * The timeouts given to the driver with the engine's connection string. The driver takes options given in code
 * over those of the connection string, so a default is only given when the string has none: a
 * `?serverSelectionTimeoutMS=` in `MONGODB_URI` keeps working. An engine option always wins.
 *
 * @example
 * driverTimeouts('mongodb://db/cms', {}); // { serverSelectionTimeoutMS: 5000, connectTimeoutMS: 10000 }
 */
export function driverTimeouts(uri: string, options: DriverTimeouts): DriverTimeouts {
  const inUri = new Set([...uri.replace(/^[^?]*\??/, '').split('&')].map((pair) => pair.split('=')[0]!.toLowerCase()));
  const pick = (name: keyof DriverTimeouts, fallback: number): DriverTimeouts => {
    const value = options[name] ?? (inUri.has(name.toLowerCase()) ? undefined : fallback);
    return value === undefined ? {} : { [name]: value };
  };
  return { ...pick('serverSelectionTimeoutMS', DEFAULT_SERVER_SELECTION_TIMEOUT_MS), ...pick('connectTimeoutMS', DEFAULT_CONNECT_TIMEOUT_MS) };
}

/** The part of an event emitter (the driver's MongoClient, a mongoose Connection) the watchers use. */
export interface Emitter {
  on(event: string, listener: (event: unknown) => void): unknown;
  removeListener(event: string, listener: (event: unknown) => void): unknown;
}

/** The driver's `serverHeartbeatFailed` event: the server's address and why the check failed. */
interface HeartbeatFailed {
  connectionId?: unknown;
  failure?: unknown;
}

/**
 * Calls `report` with a line saying which server cannot be reached and why, at the first failed heartbeat of
 * the driver's monitor: a refused connection is known in milliseconds, while the connection attempt itself only
 * fails when server selection gives up. Returns the function that stops listening.
 *
 * @example
 * const stop = onUnreachable(connection.getClient(), 5000, (line) => logger.error(line));
 */
export function onUnreachable(client: Emitter, selectionMS: number, report: (line: string) => void): () => void {
  const listener = (heartbeat: unknown): void => {
    stop();
    const event = (heartbeat ?? {}) as HeartbeatFailed;
    const reason = event.failure instanceof Error ? event.failure.message : String(event.failure);
    report(
      `content-router: MongoDB ${String(event.connectionId ?? '')} cannot be reached (${redactCredentials(reason)}); ` +
        `the driver keeps trying for ${selectionMS} ms (serverSelectionTimeoutMS), then start-up fails and is retried later`,
    );
  };
  const stop = (): void => void client.removeListener('serverHeartbeatFailed', listener);
  client.on('serverHeartbeatFailed', listener);
  return stop;
}

/**
 * Logs when an open connection loses its server (mongoose's `'disconnected'`: no reachable primary on a
 * replica set, the server gone on a single one) and when it is back (`'reconnected'`), once each. Returns the
 * function that stops listening (called before the engine closes the connection itself).
 *
 * @example
 * const stop = watchConnection(connection, logger);
 */
export function watchConnection(connection: Emitter, logger: Logger): () => void {
  const lost = (): void => logger.error('content-router: the MongoDB connection is lost (no primary can be reached); the health route answers 503 until it is back');
  const back = (): void => logger.warn('content-router: the MongoDB connection is back');
  connection.on('disconnected', lost);
  connection.on('reconnected', back);
  return () => {
    connection.removeListener('disconnected', lost);
    connection.removeListener('reconnected', back);
  };
}

/**
 * Closes a connection the engine opened, also one still connecting: mongoose's `close()` of a connecting
 * connection waits until its attempt opens or fails (up to serverSelectionTimeoutMS), so the driver client is
 * closed first, which ends the attempt at once ("Topology is closed"). `engine.close()` during a retry is then
 * immediate instead of taking seconds.
 *
 * @example
 * await closeOwnConnection(connection);
 */
export async function closeOwnConnection(connection: { getClient(): unknown; close(): Promise<unknown> }): Promise<void> {
  const client = connection.getClient() as { close?: () => Promise<void> } | undefined;
  await client?.close?.().catch(() => undefined);
  await connection.close().catch(() => undefined);
}
