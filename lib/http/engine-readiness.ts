import { ServiceUnavailableError } from '../errors';

/** Seconds a client is told to wait (`Retry-After`) and between two start-up attempts after a failure. */
export const DEFAULT_RETRY_AFTER_MS = 5_000;

export interface ReadinessOptions {
  /** Minimum time between two start-up attempts after a failure; default 5000 ms. */
  retryAfterMS?: number;
  /** Where a failure (once per outage) and the recovery are reported; default `console.error`. */
  log?: (message: string) => void;
  /** The clock (tests inject one). */
  now?: () => number;
}

/** Whether the engine has started, as the request gate sees it. */
export interface EngineReadiness {
  /** The first start-up attempt: `router.ready`. */
  readonly ready: Promise<void>;
  /** Seconds for the `Retry-After` header of a 503. */
  readonly retryAfterSeconds: number;
  /**
   * Null once the engine has started (requests go through at once); while the first attempt runs, a promise
   * that settles with it; after a failure, a promise rejected at once with a 503 ServiceUnavailableError (also
   * while a later attempt runs), and a new attempt is started in the background when the last one ended at
   * least `retryAfterMS` ago.
   */
  gate(): Promise<void> | null;
}

/**
 * Runs `start` (the engine's `init`) now and again after a failure, when a request comes at least
 * `retryAfterMS` after the last attempt: a database that comes up after the app (a container started first,
 * a failover) is picked up without a restart, and no request ever waits on a connection that is down.
 *
 * @example
 * const readiness = createEngineReadiness(() => engine.init(indexesFor(registry)));
 * router.use(authMiddleware(auth, readiness));
 */
export function createEngineReadiness(start: () => Promise<void>, options: ReadinessOptions = {}): EngineReadiness {
  const retryAfterMS = options.retryAfterMS ?? DEFAULT_RETRY_AFTER_MS;
  const log = options.log ?? ((message: string) => console.error(message));
  const now = options.now ?? Date.now;
  // starting: the first attempt runs (requests wait for it); retrying: a later one runs (requests do not wait).
  let state: 'starting' | 'up' | 'down' | 'retrying' = 'starting';
  let lastEnded = 0;
  let attempts = 0;

  const attempt = (): Promise<void> => {
    attempts++;
    const run = Promise.resolve().then(start);
    run.then(
      () => {
        if (attempts > 1) log(`content-router: the storage engine started (attempt ${attempts}); requests are served again`);
        state = 'up';
      },
      (error: unknown) => {
        if (state === 'starting') log(`content-router: the storage engine did not start, requests answer 503 and start-up is retried every ${retryAfterMS} ms or more: ${describe(error)}`);
        state = 'down';
        lastEnded = now();
      },
    );
    return run;
  };
  const first = attempt();
  const unavailable = (): Promise<void> => Promise.reject(new ServiceUnavailableError());

  return {
    ready: first,
    retryAfterSeconds: Math.ceil(retryAfterMS / 1000),
    gate() {
      if (state === 'up') return null;
      if (state === 'starting') return first.catch(unavailable);
      if (state === 'down' && now() - lastEnded >= retryAfterMS) {
        state = 'retrying';
        attempt().catch(() => undefined);
      }
      return unavailable();
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
