/**
 * The part of a mongoose `Connection` the engine waits on. mongoose's `readyState`: 0 disconnected (also "not
 * yet asked to connect"), 1 connected, 2 connecting, 3 disconnecting; the connection emits each state's name
 * when it changes, and `'open'` once it is connected with its `db` set. `asPromise()` settles with the current
 * `openUri()` attempt (https://mongoosejs.com/docs/api/connection.html#Connection.prototype.asPromise()) and
 * resolves at once when none was made, which is why a connection in state 0 is waited for through its events.
 */
export interface WaitableConnection {
  readonly readyState: number;
  readonly db?: unknown;
  asPromise(): Promise<unknown>;
  on(event: string, listener: () => void): unknown;
  removeListener(event: string, listener: () => void): unknown;
}

const CONNECTED = 1;
const CONNECTING = 2;
const STATES = ['disconnected', 'connected', 'connecting', 'disconnecting'];

/** How long `mongoEngine` waits by default for a connection to open (the driver's own server selection default). */
export const DEFAULT_CONNECT_WAIT_MS = 30_000;

/**
 * Resolves once `connection` is open with a database, whatever its state now: open (at once), connecting (its
 * attempt), or disconnected / disconnecting (the host calls `mongoose.connect()` later). Rejects with the
 * attempt's error when an attempt fails, and after `timeoutMS` when no attempt succeeds, with a message that
 * says what to do; `signal` (the engine's `close()`) ends the wait. It never listens to `'error'`: mongoose emits that event only when it has listeners, and
 * one emitted after this wait removed its listener would be thrown.
 *
 * @example
 * await awaitConnection(mongoose.connection, 30_000);
 */
export function awaitConnection(connection: WaitableConnection, timeoutMS: number, signal?: AbortSignal): Promise<void> {
  if (isOpen(connection)) return Promise.resolve();
  if (signal?.aborted) return Promise.reject(closedError());
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      for (const event of ['open', 'connected']) connection.removeListener(event, onOpen);
      connection.removeListener('connecting', onConnecting);
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined) resolve();
      else reject(error instanceof Error ? error : new Error(String(error)));
    };
    const onOpen = (): void => {
      if (isOpen(connection)) finish();
    };
    // The attempt's promise is assigned right after the 'connecting' event: read it a microtask later.
    const onConnecting = (): void => queueMicrotask(watchAttempt);
    const watchAttempt = (): void => {
      connection.asPromise().then(onOpen, (error: unknown) => finish(connectError(error)));
    };
    const onAbort = (): void => finish(closedError());
    const timer = setTimeout(() => finish(timeoutError(connection, timeoutMS)), timeoutMS);
    signal?.addEventListener('abort', onAbort);
    for (const event of ['open', 'connected']) connection.on(event, onOpen);
    connection.on('connecting', onConnecting);
    if (connection.readyState === CONNECTING) watchAttempt();
  });
}

function isOpen(connection: WaitableConnection): boolean {
  return connection.readyState === CONNECTED && connection.db !== undefined && connection.db !== null;
}

function closedError(): Error {
  return new Error('mongoEngine: closed before its connection opened');
}

function connectError(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`mongoEngine: the MongoDB connection failed: ${message}`, { cause: error });
}

function timeoutError(connection: WaitableConnection, timeoutMS: number): Error {
  const state = STATES[connection.readyState] ?? String(connection.readyState);
  return new Error(
    `mongoEngine: the mongoose connection did not open within ${timeoutMS} ms (it is ${state}). ` +
      'Call mongoose.connect() (before or after createContentRouter), or raise the `connectWaitMS` option.',
  );
}
