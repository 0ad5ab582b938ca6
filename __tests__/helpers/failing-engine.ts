import type { Engine } from '../../lib';

/** An engine whose reads (`aggregate`) of chosen collections fail, and whose first start the test releases. */
export interface FailingEngine {
  readonly engine: Engine;
  /** From now on, reads of `collection` reject with `error`. */
  failReads(collection: string, error: unknown): void;
  /** Reads succeed again. */
  heal(): void;
}

/**
 * Wraps a real engine (memory, or MongoDB under MONGODB_URI): everything goes to it, except the reads the test
 * makes fail. What fails is the engine's answer; everything above it (documents, http) runs as in production.
 *
 * @example
 * const { engine, failReads } = failingEngine(testEngine());
 * failReads('makers', new Error('connection reset'));
 */
export function failingEngine(inner: Engine): FailingEngine {
  const failures = new Map<string, unknown>();
  const aggregate: Engine['aggregate'] = (collection, pipeline, options) =>
    failures.has(collection) ? Promise.reject(failures.get(collection)) : inner.aggregate(collection, pipeline, options);
  const engine = new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'aggregate') return aggregate;
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { engine, failReads: (collection, error) => failures.set(collection, error), heal: () => failures.clear() };
}

/**
 * An engine whose first start (`init`) waits until the test calls `start()` (or `fail(error)`); later starts
 * go straight to the real engine.
 *
 * @example
 * const slow = slowStartingEngine(memoryEngine({ ephemeral: true }));
 * const router = createContentRouter({ ..., engine: slow.engine, readyWaitMS: 1 });
 * slow.start();
 */
export function slowStartingEngine(inner: Engine): { engine: Engine; start(): void; fail(error: unknown): void } {
  let release!: () => void;
  let refuse!: (error: unknown) => void;
  const gate = new Promise<void>((resolve, reject) => {
    release = resolve;
    refuse = reject;
  });
  let first = true;
  const init: Engine['init'] = async (collections) => {
    if (first) {
      first = false;
      await gate;
    }
    return inner.init(collections);
  };
  const engine = new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'init') return init;
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { engine, start: () => release(), fail: (error) => refuse(error) };
}
