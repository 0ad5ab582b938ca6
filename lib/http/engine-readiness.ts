import { redactCredentials, ServiceUnavailableError, warningsEmitted } from '../errors';
import { createLogger, type Logger } from '../errors/logger';

/** Seconds a client is told to wait (`Retry-After`) and between two start-up attempts after a failure. */
export const DEFAULT_RETRY_AFTER_MS = 5_000;
/** How long a request waits for the first start-up attempt before it answers 503 (`readyWaitMS`). */
export const DEFAULT_READY_WAIT_MS = 5_000;
/** The reason a 503 gives while the first start-up attempt runs. */
export const STILL_STARTING = 'the storage engine is still starting';
/**
 * The reason a 503 gives after a failed start-up. The cause itself (which may name the database host or the
 * data file) goes to the log only: the 503 is answered to anonymous callers on the public internet.
 */
export const DID_NOT_START = 'the storage engine did not start (the cause is in the server log)';

export interface ReadinessOptions {
  /** Minimum time between two start-up attempts after a failure; default 5000 ms. */
  retryAfterMS?: number;
  /** How long a request waits for the first attempt before it answers 503; default 5000 ms. */
  waitMS?: number;
  /** Where a failure (`error`, once per outage) and the recovery (`warn`) are reported; default `console`. */
  logger?: Logger;
  /** Called once, when an attempt first succeeds (the first or a retry): the start-up line. */
  onStarted?: () => void;
  /** The clock (tests inject one). */
  now?: () => number;
}

/** Whether the engine has started, as the request gate and the health route see it. */
export interface EngineReadiness {
  /** The first start-up attempt: `router.ready`. */
  readonly ready: Promise<void>;
  /** Seconds for the `Retry-After` header of a 503. */
  readonly retryAfterSeconds: number;
  /**
   * Null once the engine has started (requests go through at once); while the first attempt runs, a promise
   * that settles with it, or rejects with a 503 "still starting" after `waitMS`; after a failure, a promise
   * rejected at once with a 503 ServiceUnavailableError (also while a later attempt runs).
   */
  gate(): Promise<void> | null;
  /**
   * The same answer without waiting: null once started, else the 503 error a request gets now (the health route).
   * Like `gate`, it starts a new attempt in the background when the last one failed at least `retryAfterMS` ago.
   */
  check(): ServiceUnavailableError | null;
}

/**
 * Runs `start` (the engine's `init`) now and again after a failure, when a request (or a health check) comes at
 * least `retryAfterMS` after the last attempt: a database that comes up after the app (a container started
 * first, a failover) is picked up without a restart, and no request ever waits on a connection that is down,
 * nor more than `waitMS` on the first attempt. An attempt settles only after the process warnings it emitted
 * (and those of `createContentRouter`) have been emitted: a host that exits right after `router.ready` sees them.
 *
 * @example
 * const readiness = createEngineReadiness(() => engine.init(indexesFor(registry), { logger }), { logger });
 * router.use(authMiddleware(auth, readiness));
 */
export function createEngineReadiness(start: () => Promise<void>, options: ReadinessOptions = {}): EngineReadiness {
  const retryAfterMS = options.retryAfterMS ?? DEFAULT_RETRY_AFTER_MS;
  const waitMS = options.waitMS ?? DEFAULT_READY_WAIT_MS;
  const logger = options.logger ?? createLogger(undefined);
  const now = options.now ?? Date.now;
  // starting: the first attempt runs (requests wait for it); retrying: a later one runs (requests do not wait).
  let state: 'starting' | 'up' | 'down' | 'retrying' = 'starting';
  let lastEnded = 0;
  let attempts = 0;

  const attempt = (): Promise<void> => {
    attempts++;
    const run = Promise.resolve()
      .then(start)
      .then(warningsEmitted, (error: unknown) => warningsEmitted().then(() => Promise.reject(error)));
    run.then(
      () => {
        const retried = attempts > 1;
        state = 'up';
        safely(() => {
          if (retried) logger.warn(`content-router: the storage engine started (attempt ${attempts}); requests are served again`);
          options.onStarted?.();
        });
      },
      (error: unknown) => {
        const first = state === 'starting';
        state = 'down';
        lastEnded = now();
        if (!first) return;
        safely(() =>
          logger.error(
            `content-router: the storage engine did not start; requests answer 503 (Retry-After: ${Math.ceil(retryAfterMS / 1000)}) ` +
              `and the first request ${retryAfterMS} ms or more after this attempt starts another: ${describe(error)}`,
          ),
        );
      },
    );
    return run;
  };
  const first = attempt();
  const retryWhenDue = (): void => {
    if (state === 'down' && now() - lastEnded >= retryAfterMS) {
      state = 'retrying';
      attempt().catch(() => undefined);
    }
  };

  return {
    ready: first,
    retryAfterSeconds: Math.ceil(retryAfterMS / 1000),
    gate() {
      if (state === 'up') return null;
      if (state === 'starting') return waitFor(first, waitMS).catch((error: unknown) => (error === TIMED_OUT ? Promise.reject(stillStarting()) : Promise.reject(didNotStart())));
      retryWhenDue();
      return Promise.reject(didNotStart());
    },
    check() {
      if (state === 'up') return null;
      if (state === 'starting') return stillStarting();
      retryWhenDue();
      return didNotStart();
    },
  };
}

const TIMED_OUT = Symbol('timed out');

/** `promise`, or a rejection with TIMED_OUT after `ms`; the timer is cleared as soon as `promise` settles. */
function waitFor(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(TIMED_OUT), ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function stillStarting(): ServiceUnavailableError {
  return new ServiceUnavailableError(`Service Unavailable: ${STILL_STARTING}`, { reason: STILL_STARTING });
}

function didNotStart(): ServiceUnavailableError {
  return new ServiceUnavailableError('Service Unavailable: the storage engine did not start', { reason: DID_NOT_START });
}

/** Runs a report (the host's logger, the start-up line): one that throws must not end the process. */
function safely(report: () => void): void {
  try {
    report();
  } catch {
    // a failing logger is the host's to notice; start-up goes on
  }
}

/** The error's message, credentials redacted (logged). */
function describe(error: unknown): string {
  return redactCredentials(error instanceof Error ? error.message : String(error));
}
