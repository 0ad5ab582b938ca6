/** The part of a driver `ClientSession` the retry loop uses (a plain object in the server-less tests). */
export interface TransactionSession {
  startTransaction(): void;
  commitTransaction(): Promise<unknown>;
  abortTransaction(): Promise<unknown>;
  inTransaction(): boolean;
}

/** Time, sleep and randomness of the retry loop: injected so that tests can run it without waiting. */
export interface RetryClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
}

export interface RunTransactionOptions {
  /** How long (ms, from the first attempt) a transaction may still be retried. */
  retryMs: number;
  clock?: RetryClock;
}

/** The driver's default bound of `withTransaction` (node-mongodb-native `sessions.ts`, `MAX_TIMEOUT`). */
export const DEFAULT_TRANSACTION_RETRY_MS = 120_000;

const TRANSIENT = 'TransientTransactionError';
const UNKNOWN_COMMIT = 'UnknownTransactionCommitResult';
/** The backoff of the driver's `withTransaction`: jitter x min(5 ms x 1.5^attempt, 500 ms). */
const BACKOFF_INITIAL_MS = 5;
const BACKOFF_MAX_MS = 500;
const BACKOFF_GROWTH = 1.5;

const realClock: RetryClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: () => Math.random(),
};

/**
 * Runs `attempt` in a transaction of `session` and commits it, retrying as the driver's callback API
 * (`ClientSession.withTransaction`) does and as the manual prescribes
 * (https://www.mongodb.com/docs/manual/core/transactions-in-applications/):
 * - an error labelled `TransientTransactionError` (a write conflict, a primary step-down, ...) from `attempt` or
 *   from the commit aborts the transaction and runs the whole of `attempt` again, after a short jittered backoff;
 * - an error labelled `UnknownTransactionCommitResult` from the commit (not a `MaxTimeMSExpired`) retries the commit;
 * - any other error aborts the transaction and is thrown as is;
 * - no retry starts once `retryMs` have passed since the first attempt: the last error is thrown.
 * `attempt` may therefore run more than once: everything it does besides engine writes must be repeatable.
 *
 * @example
 * const result = await runTransaction(session, () => scope.run(session, fn), { retryMs: 120_000 });
 */
export async function runTransaction<T>(session: TransactionSession, attempt: () => Promise<T>, options: RunTransactionOptions): Promise<T> {
  const clock = options.clock ?? realClock;
  const deadline = clock.now() + options.retryMs;
  let lastError: unknown;
  for (let n = 0; ; n++) {
    if (n > 0) await backoff(n, deadline, clock, lastError);
    session.startTransaction();
    let result: T;
    try {
      result = await attempt();
    } catch (error) {
      if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
      if (!hasErrorLabel(error, TRANSIENT) || clock.now() >= deadline) throw error;
      lastError = error;
      continue;
    }
    const failure = await commit(session, deadline, clock);
    if (failure === null) return result;
    lastError = failure;
  }
}

/** Commits; returns null when committed, or the transient error after which the whole transaction is retried. */
async function commit(session: TransactionSession, deadline: number, clock: RetryClock): Promise<unknown> {
  for (;;) {
    try {
      await session.commitTransaction();
      return null;
    } catch (error) {
      if (hasErrorLabel(error, UNKNOWN_COMMIT) && !isMaxTimeMSExpired(error)) {
        if (clock.now() >= deadline) throw error;
        continue;
      }
      if (hasErrorLabel(error, TRANSIENT)) return error;
      throw error;
    }
  }
}

async function backoff(attempt: number, deadline: number, clock: RetryClock, lastError: unknown): Promise<void> {
  const ms = clock.random() * Math.min(BACKOFF_INITIAL_MS * BACKOFF_GROWTH ** attempt, BACKOFF_MAX_MS);
  if (clock.now() + ms >= deadline) throw lastError;
  await clock.sleep(ms);
}

/**
 * Whether a driver error carries `label` (`MongoError.hasErrorLabel`, else its `errorLabels` array).
 *
 * @example
 * hasErrorLabel({ errorLabels: ['TransientTransactionError'] }, 'TransientTransactionError') // true
 */
export function hasErrorLabel(error: unknown, label: string): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { hasErrorLabel?: unknown; errorLabels?: unknown };
  if (typeof e.hasErrorLabel === 'function') return (e.hasErrorLabel as (l: string) => boolean).call(error, label) === true;
  return Array.isArray(e.errorLabels) && e.errorLabels.includes(label);
}

/** `MaxTimeMSExpired` (code 50), on the command or its write concern: the driver does not retry such a commit. */
function isMaxTimeMSExpired(error: unknown): boolean {
  const e = error as { code?: unknown; writeConcernError?: { code?: unknown } } | null;
  return e?.code === 50 || e?.writeConcernError?.code === 50;
}
