import { ServiceUnavailableError } from '../../../lib';
import { createEngineReadiness, DID_NOT_START, STILL_STARTING } from '../../../lib/http/engine-readiness';
import { createLogger } from '../../../lib/errors/logger';

/** A start function whose attempts the test settles by hand, and a clock the test moves. */
function harness(retryAfterMS = 5000, waitMS?: number) {
  const attempts: { resolve(): void; reject(e: Error): void }[] = [];
  const logged: string[] = [];
  let time = 1_000_000;
  const start = (): Promise<void> => new Promise((resolve, reject) => attempts.push({ resolve, reject }));
  const logger = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m) };
  const readiness = createEngineReadiness(start, { retryAfterMS, waitMS, logger, now: () => time });
  const settle = (): Promise<void> => new Promise((r) => setImmediate(r));
  return { readiness, attempts, logged, settle, advance: (ms: number) => (time += ms) };
}

describe('createEngineReadiness', () => {
  it('requests wait for the first attempt, then pass without waiting', async () => {
    const { readiness, attempts, settle, logged } = harness();
    await settle();
    const waiting = readiness.gate();
    expect(waiting).toBeInstanceOf(Promise);
    attempts[0]!.resolve();
    await expect(waiting).resolves.toBeUndefined();
    await expect(readiness.ready).resolves.toBeUndefined();
    expect(readiness.gate()).toBeNull();
    expect(logged).toEqual([]);
  });

  it('a failed start: logged once, 503 at once, retried in the background after retryAfterMS, served once it starts', async () => {
    const { readiness, attempts, settle, logged, advance } = harness();
    await settle();
    const waiting = readiness.gate();
    attempts[0]!.reject(new Error('connect ECONNREFUSED 127.0.0.1:27017'));
    await expect(readiness.ready).rejects.toThrow('ECONNREFUSED');
    await expect(waiting).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(logged).toEqual([
      'content-router: the storage engine did not start; requests answer 503 (Retry-After: 5) and the first request 5000 ms or more after this attempt starts another: connect ECONNREFUSED 127.0.0.1:27017',
    ]);

    await expect(readiness.gate()).rejects.toMatchObject({ status: 503, name: 'ServiceUnavailableError' });
    await settle();
    expect(attempts).toHaveLength(1); // too early to try again

    advance(5000);
    await expect(readiness.gate()).rejects.toBeInstanceOf(ServiceUnavailableError);
    await settle();
    expect(attempts).toHaveLength(2); // a retry runs; requests do not wait for it
    await expect(readiness.gate()).rejects.toBeInstanceOf(ServiceUnavailableError);
    attempts[1]!.reject(new Error('still down'));
    await settle();
    expect(logged).toHaveLength(1); // logged once per outage

    advance(4999);
    await expect(readiness.gate()).rejects.toBeInstanceOf(ServiceUnavailableError);
    await settle();
    expect(attempts).toHaveLength(2);
    advance(1);
    await expect(readiness.gate()).rejects.toBeInstanceOf(ServiceUnavailableError);
    await settle();
    attempts[2]!.resolve();
    await settle();
    expect(readiness.gate()).toBeNull();
    expect(logged[1]).toBe('content-router: the storage engine started (attempt 3); requests are served again');
  });

  it('a start function that throws synchronously is a failed start, not a crash', async () => {
    const readiness = createEngineReadiness(() => {
      throw new Error('boom');
    }, { logger: createLogger(false) });
    await expect(readiness.ready).rejects.toThrow('boom');
    await expect(readiness.gate()).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(readiness.retryAfterSeconds).toBe(5);
  });

  it('a request waits at most waitMS for the first attempt: then 503 "still starting"; the attempt goes on', async () => {
    const { readiness, attempts, settle, logged } = harness(5000, 1);
    await settle();
    await expect(readiness.gate()).rejects.toMatchObject({
      status: 503,
      name: 'ServiceUnavailableError',
      message: 'Service Unavailable: the storage engine is still starting',
      details: { reason: 'the storage engine is still starting' },
    });
    expect(attempts).toHaveLength(1);
    attempts[0]!.resolve();
    await readiness.ready;
    expect(readiness.gate()).toBeNull();
    expect(logged).toEqual([]);
  });

  it('waitMS 0: a request during the first attempt answers 503 without waiting for it', async () => {
    const { readiness, attempts, settle } = harness(5000, 0);
    await settle();
    await expect(readiness.gate()).rejects.toMatchObject({ details: { reason: 'the storage engine is still starting' } });
    attempts[0]!.reject(new Error('down'));
    await expect(readiness.ready).rejects.toThrow('down');
  });

  it.each([
    ['a connection string', 'bad uri mongodb+srv://app:p%40ss@cluster0.example.net/cms?retryWrites=true', 'bad uri mongodb+srv://***@cluster0.example.net/cms?retryWrites=true'],
    ['an unencoded @ in the password', 'failed: mongodb://app:p@ss@db:27017/cms', 'failed: mongodb://***@db:27017/cms'],
    ['a password parameter', 'mongodb://db/cms?authSource=admin&password=hunter2&w=1', 'mongodb://db/cms?authSource=admin&password=***&w=1'],
    ['AWS credentials', 'mongodb://db/?authMechanismProperties=AWS_SESSION_TOKEN:abc&tlsCertificateKeyFilePassword=x', 'mongodb://db/?authMechanismProperties=***&tlsCertificateKeyFilePassword=***'],
    ['several lines', 'first line\nsecond line', 'first line'],
  ])('after a failure the log gives the cause, credentials redacted, and the 503 only that start-up failed: %s', async (_label, message, reason) => {
    const { readiness, attempts, settle, logged } = harness();
    await settle();
    attempts[0]!.reject(new Error(message));
    await expect(readiness.ready).rejects.toThrow();
    await expect(readiness.gate()).rejects.toMatchObject({ message: 'Service Unavailable: the storage engine did not start', details: { reason: DID_NOT_START } });
    expect(logged[0]).toContain(reason);
    expect(logged[0]).not.toMatch(/hunter2|p%40ss|p@ss|abc|:x/);
  });

  it('check() answers at once: still starting, up, did not start (and starts a retry when due, like gate)', async () => {
    const { readiness, attempts, settle, advance } = harness();
    await settle();
    expect(readiness.check()).toMatchObject({ status: 503, details: { reason: STILL_STARTING } });
    attempts[0]!.reject(new Error('down'));
    await expect(readiness.ready).rejects.toThrow('down');
    expect(readiness.check()).toMatchObject({ status: 503, details: { reason: DID_NOT_START } });
    await settle();
    expect(attempts).toHaveLength(1);
    advance(5000);
    expect(readiness.check()).toMatchObject({ details: { reason: DID_NOT_START } }); // the retry runs; no waiting
    await settle();
    expect(attempts).toHaveLength(2);
    attempts[1]!.resolve();
    await settle();
    expect(readiness.check()).toBeNull();
  });

  it('onStarted runs once, when an attempt first succeeds (a retry here)', async () => {
    let time = 0;
    const results = [Promise.reject(new Error('down')), Promise.resolve()];
    const started: number[] = [];
    const readiness = createEngineReadiness(() => results.shift()!, { logger: createLogger(false), now: () => time, onStarted: () => started.push(time) });
    await expect(readiness.ready).rejects.toThrow('down');
    time = 5000;
    readiness.check();
    await new Promise((r) => setImmediate(r));
    expect(readiness.check()).toBeNull();
    expect(started).toEqual([5000]);
  });

  it('a logger or onStarted that throws does not reject anything nor end the process', async () => {
    const throwing = { info: () => undefined, warn: () => undefined, error: () => { throw new Error('logger down'); } };
    const failed = createEngineReadiness(() => Promise.reject(new Error('down')), { logger: throwing });
    await expect(failed.ready).rejects.toThrow('down');
    const up = createEngineReadiness(() => Promise.resolve(), { onStarted: () => { throw new Error('hook'); } });
    await expect(up.ready).resolves.toBeUndefined();
    await new Promise((r) => setImmediate(r)); // an unhandled rejection would fail the test run here
    expect(up.check()).toBeNull();
  });

  it.each([
    ['succeeds', () => Promise.resolve()],
    ['fails', () => Promise.reject(new Error('down'))],
  ])('an attempt that %s settles after the ticks queued during it: process.emitWarning emits on one', async (_label, outcome) => {
    const seen: string[] = [];
    const readiness = createEngineReadiness(async () => {
      await Promise.resolve();
      process.nextTick(() => seen.push('warning emitted')); // what process.emitWarning does
      return outcome();
    }, { logger: createLogger(false) });
    await readiness.ready.catch(() => undefined);
    expect(seen).toEqual(['warning emitted']);
  });
});
