import { mongoEngine } from '../../../lib/engine';
import { hasErrorLabel, runTransaction, type RetryClock, type TransactionSession } from '../../../lib/engine/mongo/run-transaction';
import { fakeConnection, labelled } from './fake-connection';

const TRANSIENT = 'TransientTransactionError';
const UNKNOWN = 'UnknownTransactionCommitResult';

/** A clock that only moves when the loop sleeps (or a step says so): no real waiting, no timing in assertions. */
function fakeClock(): RetryClock & { t: number; sleeps: number[] } {
  const clock = {
    t: 0,
    sleeps: [] as number[],
    now: () => clock.t,
    sleep: async (ms: number) => { clock.sleeps.push(ms); clock.t += ms; },
    random: () => 1,
  };
  return clock;
}

function fakeSession(onCommit: () => void = () => undefined): TransactionSession & { events: string[] } {
  let open = false;
  const events: string[] = [];
  return {
    events,
    startTransaction: () => { open = true; events.push('start'); },
    commitTransaction: async () => { events.push('commit'); onCommit(); open = false; },
    abortTransaction: async () => { open = false; events.push('abort'); },
    inTransaction: () => open,
  };
}

describe('runTransaction (the retry loop of the driver callback API)', () => {
  it('retries the whole transaction on TransientTransactionError, with a growing jittered backoff', async () => {
    const session = fakeSession();
    const clock = fakeClock();
    let runs = 0;
    const result = await runTransaction(session, async () => {
      if (++runs < 3) throw labelled('WriteConflict', [TRANSIENT]);
      return 'ok';
    }, { retryMs: 10_000, clock });
    expect(result).toBe('ok');
    expect(runs).toBe(3);
    expect(session.events).toEqual(['start', 'abort', 'start', 'abort', 'start', 'commit']);
    expect(clock.sleeps).toEqual([5 * 1.5, 5 * 1.5 ** 2]);
  });

  it('retries only the commit on UnknownTransactionCommitResult', async () => {
    let commits = 0;
    const session = fakeSession(() => { if (++commits < 3) throw labelled('network', [UNKNOWN], 6); });
    let runs = 0;
    await runTransaction(session, async () => { runs++; }, { retryMs: 10_000, clock: fakeClock() });
    expect(runs).toBe(1);
    expect(session.events).toEqual(['start', 'commit', 'commit', 'commit']);
  });

  it('does not retry a commit that failed with MaxTimeMSExpired, even when labelled unknown', async () => {
    const error = labelled('maxTimeMS', [UNKNOWN], 50);
    const session = fakeSession(() => { throw error; });
    await expect(runTransaction(session, async () => undefined, { retryMs: 10_000, clock: fakeClock() })).rejects.toBe(error);
    expect(session.events).toEqual(['start', 'commit']);
  });

  it('retries the whole transaction when the commit fails with TransientTransactionError', async () => {
    let commits = 0;
    const session = fakeSession(() => { if (++commits === 1) throw labelled('conflict at commit', [TRANSIENT]); });
    let runs = 0;
    await runTransaction(session, async () => { runs++; }, { retryMs: 10_000, clock: fakeClock() });
    expect(runs).toBe(2);
    expect(session.events).toEqual(['start', 'commit', 'start', 'commit']);
  });

  it('throws other errors at once, after aborting', async () => {
    const session = fakeSession();
    const error = Object.assign(new Error('E11000'), { code: 11000 });
    let runs = 0;
    await expect(runTransaction(session, async () => { runs++; throw error; }, { retryMs: 10_000, clock: fakeClock() })).rejects.toBe(error);
    expect(runs).toBe(1);
    expect(session.events).toEqual(['start', 'abort']);
  });

  it('stops retrying once the time bound has passed and throws the last error', async () => {
    const session = fakeSession();
    const clock = fakeClock();
    let runs = 0;
    const errors: Error[] = [];
    const failing = runTransaction(session, async () => {
      runs++;
      clock.t += 400;
      const e = labelled(`conflict ${runs}`, [TRANSIENT]);
      errors.push(e);
      throw e;
    }, { retryMs: 1_000, clock });
    const thrown = await failing.catch((e: unknown) => e);
    expect(thrown).toBe(errors[errors.length - 1]);
    expect(runs).toBe(3);
    expect(clock.t).toBeGreaterThanOrEqual(1_000);
  });

  it('stops retrying an unknown commit result once the time bound has passed', async () => {
    const clock = fakeClock();
    const session = fakeSession(() => { clock.t += 300; throw labelled('network', [UNKNOWN], 6); });
    await expect(runTransaction(session, async () => undefined, { retryMs: 1_000, clock })).rejects.toMatchObject({ message: 'network' });
    expect(session.events.filter((e) => e === 'commit')).toHaveLength(4);
  });
});

describe('hasErrorLabel', () => {
  it.each([
    [{ hasErrorLabel: (l: string) => l === TRANSIENT }, true],
    [{ errorLabels: [TRANSIENT] }, true],
    [{ errorLabels: [UNKNOWN] }, false],
    [{ code: 112 }, false],
    [null, false],
    ['TransientTransactionError', false],
  ])('%p -> %p', (error, expected) => {
    expect(hasErrorLabel(error, TRANSIENT)).toBe(expected);
  });
});

describe('mongoEngine.transaction (server-less, fake driver)', () => {
  it('runs every operation of fn in the session, retries transient failures, and allocates ids outside it', async () => {
    let inserts = 0;
    const { connection, log } = fakeConnection({ onInsert: () => { if (++inserts === 1) throw labelled('WriteConflict', [TRANSIENT]); } });
    const engine = mongoEngine({ connection });
    const id = await engine.transaction(async () => {
      const next = await engine.nextId('articles');
      await engine.insertMany('articles', [{ id: next }]);
      return next;
    });
    expect(id).toBe(2);
    expect(log.events).toEqual(['start', 'nextId', 'insert:session', 'abort', 'start', 'nextId', 'insert:session', 'commit', 'end']);
    expect(log.sessions).toBe(1);
  });

  it('joins nested transactions to the outer one: one session, no retry of the inner one alone', async () => {
    let inserts = 0;
    const { connection, log } = fakeConnection({ onInsert: () => { if (++inserts === 2) throw labelled('WriteConflict', [TRANSIENT]); } });
    const engine = mongoEngine({ connection });
    let inner = 0;
    await engine.transaction(async () => {
      await engine.insertMany('a', [{ n: 1 }]);
      await engine.transaction(async () => { inner++; await engine.insertMany('a', [{ n: 2 }]); });
    });
    expect(inner).toBe(2);
    expect(log.sessions).toBe(1);
    expect(log.events.filter((e) => e === 'start')).toHaveLength(2);
    expect(log.events.slice(-2)).toEqual(['commit', 'end']);
  });

  it('does not retry a non-transient error and ends the session', async () => {
    const { connection, log } = fakeConnection({ onInsert: () => { throw Object.assign(new Error('boom'), { code: 2 }); } });
    const engine = mongoEngine({ connection });
    await expect(engine.transaction(() => engine.insertMany('a', [{ n: 1 }]))).rejects.toThrow('boom');
    expect(log.events).toEqual(['start', 'insert:session', 'abort', 'end']);
  });

  it('gives up after transactionRetryMs', async () => {
    const { connection, log } = fakeConnection({ onInsert: () => { throw labelled('WriteConflict', [TRANSIENT]); } });
    const engine = mongoEngine({ connection, transactionRetryMs: 0 });
    await expect(engine.transaction(() => engine.insertMany('a', [{ n: 1 }]))).rejects.toMatchObject({ errorLabels: [TRANSIENT] });
    expect(log.events).toEqual(['start', 'insert:session', 'abort', 'end']);
  });

  it('retries the commit of the engine transaction on UnknownTransactionCommitResult', async () => {
    let commits = 0;
    const { connection, log } = fakeConnection({ onCommit: () => { if (++commits === 1) throw labelled('network', [UNKNOWN], 6); } });
    const engine = mongoEngine({ connection });
    await engine.transaction(() => engine.insertMany('a', [{ n: 1 }]));
    expect(log.events).toEqual(['start', 'insert:session', 'commit', 'commit', 'end']);
  });
});
