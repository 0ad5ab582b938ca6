import { createContentRouter } from '../../../lib';
import { mongoEngine } from '../../../lib/engine';
import { httpComponents, httpContentTypes } from '../../fixtures/http-model';
import { STANDALONE_MESSAGE, UNSAFE_WRITES_WARNING } from '../../../lib/engine/mongo/transaction-support';
import { fakeConnection } from './fake-connection';

const standalone = { isWritablePrimary: true, maxWireVersion: 17 };

/** The process warnings emitted while `fn` runs (`process.emitWarning` spied on: nothing reaches stderr). */
async function warningsDuring(fn: () => Promise<unknown>): Promise<unknown[][]> {
  const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  try {
    await fn();
    return spy.mock.calls as unknown[][];
  } finally {
    spy.mockRestore();
  }
}

describe('mongoEngine start-up: deployments without transactions', () => {
  it.each([
    ['a replica set member', { setName: 'rs0', isWritablePrimary: true }],
    ['a mongos router', { msg: 'isdbgrid' }],
  ])('accepts %s', async (_name, hello) => {
    const { connection, log } = fakeConnection({ hello });
    const engine = mongoEngine({ connection });
    await engine.transaction(() => engine.insertMany('a', [{ n: 1 }]));
    expect(log.events).toEqual(['start', 'insert:session', 'commit', 'end']);
  });

  it('refuses a standalone server by default, saying how to run a one-node replica set', async () => {
    const { connection } = fakeConnection({ hello: standalone });
    const engine = mongoEngine({ connection });
    const failing = engine.init([]);
    await expect(failing).rejects.toMatchObject({ name: 'ConfigurationError', code: 'CR_NO_TRANSACTIONS' });
    await expect(failing).rejects.toThrow(STANDALONE_MESSAGE);
    for (const hint of ['mongod --replSet rs0', 'rs.initiate()', '?replicaSet=rs0', 'transactions: false']) {
      await expect(engine.init([])).rejects.toThrow(hint);
    }
  });

  it('router.ready rejects with CR_NO_TRANSACTIONS on a standalone server, and the failed start-up is logged once', async () => {
    const { connection } = fakeConnection({ hello: standalone });
    const logged = { info: jest.fn(), warn: jest.fn(), error: jest.fn() };
    const router = createContentRouter({ contentTypes: httpContentTypes, components: httpComponents, engine: mongoEngine({ connection }), upload: false, logger: logged });
    await expect(router.ready).rejects.toMatchObject({ name: 'ConfigurationError', code: 'CR_NO_TRANSACTIONS' });
    await expect(router.ready).rejects.toThrow('rs.initiate()');
    expect(logged.error.mock.calls).toEqual([[expect.stringMatching(/did not start.*CR_NO_TRANSACTIONS/)]]);
  });

  it('refuses a standalone server with transactions: true too', async () => {
    const { connection } = fakeConnection({ hello: standalone });
    await expect(mongoEngine({ connection, transactions: true }).count('a', {})).rejects.toThrow('standalone');
  });

  it('with transactions: false, writes without a session and warns once at start-up', async () => {
    const { connection, log } = fakeConnection({ hello: standalone });
    const engine = mongoEngine({ connection, transactions: false });
    const warnings = await warningsDuring(async () => {
      await engine.transaction(() => engine.insertMany('a', [{ n: 1 }]));
      await engine.transaction(() => engine.insertMany('a', [{ n: 2 }]));
    });
    expect(log.events).toEqual(['insert', 'insert']);
    expect(log.sessions).toBe(0);
    expect(warnings).toHaveLength(1);
    const [message, options] = warnings[0]!;
    expect(message).toContain('WITHOUT transactions');
    expect(options).toEqual({ type: 'ContentRouterWarning', code: UNSAFE_WRITES_WARNING });
  });

  it("rejects the removed 'auto' and other non-boolean values when the engine is created", () => {
    const { connection } = fakeConnection();
    expect(() => mongoEngine({ connection, transactions: 'auto' as unknown as boolean })).toThrow('must be true');
  });
});
