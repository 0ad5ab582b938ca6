import mongoose from 'mongoose';
import { mongoEngine, type Engine } from '../../../lib/engine';
import type { MongooseConnectionLike } from '../../../lib/engine/mongo/mongo-engine';
import { awaitConnection } from '../../../lib/engine/mongo/await-connection';
import { createLogger } from '../../../lib/errors/logger';
import { ensureIndex } from '../../../lib/engine/mongo/ensure-index';
import { UNSAFE_WRITES_WARNING } from '../../../lib/engine/mongo/transaction-support';
import type { IndexSpec } from '../../../lib/engine/types';
import { FakeConnection, FakeDb } from './fake-mongo';

/** mongoose's connection states (readyState 0, 1, 2, 3) as start-up meets them, on a fake connection. */
describe('awaitConnection', () => {
  it('resolves at once for an open connection', async () => {
    const connection = new FakeConnection();
    await connection.open();
    await expect(awaitConnection(connection, 1000)).resolves.toBeUndefined();
    expect(connection.listenerCount('open')).toBe(0);
  });

  it('waits for a connection the host connects later (state 0, then connecting, then open)', async () => {
    const connection = new FakeConnection();
    const waiting = awaitConnection(connection, 60_000);
    setImmediate(() => void connection.open());
    await expect(waiting).resolves.toBeUndefined();
    expect(connection.db).toBeDefined();
    expect(['open', 'connected', 'connecting'].map((e) => connection.listenerCount(e))).toEqual([0, 0, 0]);
  });

  it('waits for a connection that is connecting (state 2)', async () => {
    const connection = new FakeConnection();
    void connection.open();
    await expect(awaitConnection(connection, 60_000)).resolves.toBeUndefined();
  });

  it('rejects with the attempt error when the connection cannot be made', async () => {
    const connection = new FakeConnection();
    const waiting = awaitConnection(connection, 60_000);
    connection.fail('connect ECONNREFUSED 127.0.0.1:1');
    await expect(waiting).rejects.toThrow('mongoEngine: the MongoDB connection failed: connect ECONNREFUSED 127.0.0.1:1');
  });

  it('rejects with what to do when no attempt is made within the bound', async () => {
    await expect(awaitConnection(new FakeConnection(), 5)).rejects.toThrow(
      /did not open within 5 ms \(it is disconnected\)\. Call mongoose\.connect\(\).*`connectWaitMS`/,
    );
  });

  it('stops waiting when aborted (the engine is closed)', async () => {
    const controller = new AbortController();
    const waiting = awaitConnection(new FakeConnection(), 60_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow('closed before its connection opened');
  });
});

/**
 * Runs `fn` with the process warnings captured (nothing reaches stderr) and asserts the one start-up gives with
 * `transactions: false`, which these tests use so that the fakes need no transaction support.
 */
async function expectUnsafeWritesWarning(fn: () => Promise<void>): Promise<void> {
  const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  try {
    await fn();
    expect(spy.mock.calls).toEqual([[expect.stringContaining('WITHOUT transactions'), { type: 'ContentRouterWarning', code: UNSAFE_WRITES_WARNING }]]);
  } finally {
    spy.mockRestore();
  }
}

describe('mongoEngine({ connection }) created before mongoose.connect()', () => {
  const specs = [{ name: 'articles', indexes: [{ name: 'id', keys: { id: 1 }, unique: true } satisfies IndexSpec] }];

  it('initializes once the host connects', async () => {
    const db = new FakeDb();
    const connection = new FakeConnection(db);
    const engine = mongoEngine({ connection, transactions: false });
    try {
      await expectUnsafeWritesWarning(async () => {
        const init = engine.init(specs);
        setImmediate(() => void connection.open());
        await init;
      });
      expect(db.indexes.get('articles')!.map((i) => i.name)).toEqual(['_id_', 'id']);
    } finally {
      await engine.close();
    }
  });

  it('rejects init when the host never connects within connectWaitMS, and tries again on the next init', async () => {
    const connection = new FakeConnection();
    const engine = mongoEngine({ connection, transactions: false, connectWaitMS: 5 });
    try {
      await expect(engine.init(specs)).rejects.toThrow(/did not open within 5 ms/);
      await connection.open();
      await expectUnsafeWritesWarning(() => expect(engine.init(specs)).resolves.toBeUndefined());
    } finally {
      await engine.close();
    }
  });

  it('mongoose.connection fits the structural type (checked by tsc), before connect: readyState 0', () => {
    const connection: MongooseConnectionLike = mongoose.connection;
    expect(connection.readyState).toBe(0);
  });

  it('validates connectWaitMS', () => {
    expect(() => mongoEngine({ connection: new FakeConnection(), connectWaitMS: 0 })).toThrow('connectWaitMS');
  });
});

describe('mongoEngine with an unreachable server (loopback port 1, 300 ms server selection)', () => {
  let engine: Engine;
  afterEach(() => engine.close());

  it('rejects init with the driver error, and close() still resolves', async () => {
    engine = mongoEngine({ uri: 'mongodb://127.0.0.1:1/never?serverSelectionTimeoutMS=300' });
    await expect(engine.init([], { logger: createLogger(false) })).rejects.toThrow(/mongoEngine: the MongoDB connection failed: .*(ECONNREFUSED|Server selection timed out)/);
  });
});

describe('ensureIndex: index definitions that changed between versions', () => {
  const warn = (): { log: (m: string) => void; lines: string[] } => {
    const lines: string[] = [];
    return { lines, log: (m) => lines.push(m) };
  };

  it.each<[string, IndexSpec, IndexSpec, string[]]>([
    ['same definition: nothing dropped', { name: 'id', keys: { id: 1 }, unique: true }, { name: 'id', keys: { id: 1 }, unique: true }, []],
    ['other keys under the name (86)', { name: 'doc', keys: { documentId: 1 } }, { name: 'doc', keys: { documentId: 1, locale: 1 } }, ['dropIndex a.doc']],
    ['unique added (85)', { name: 'id', keys: { id: 1 } }, { name: 'id', keys: { id: 1 }, unique: true }, ['dropIndex a.id']],
    ['unique removed (85)', { name: 'id', keys: { id: 1 }, unique: true }, { name: 'id', keys: { id: 1 } }, ['dropIndex a.id']],
    ['same keys under an old name (85)', { name: 'author_1', keys: { author: 1 } }, { name: 'author', keys: { author: 1 } }, ['dropIndex a.author_1']],
  ])('%s', async (_label, before, after, drops) => {
    const db = new FakeDb();
    await ensureIndex(db, 'a', before, () => undefined);
    const { log, lines } = warn();
    await ensureIndex(db, 'a', after, log);
    expect(db.calls.filter((c) => c.startsWith('dropIndex'))).toEqual(drops);
    expect(lines).toHaveLength(drops.length);
    const stored = db.indexes.get('a')!.find((i) => i.name === after.name)!;
    expect({ key: stored.key, unique: Boolean(stored.unique) }).toEqual({ key: after.keys, unique: Boolean(after.unique) });
    expect(db.indexes.get('a')!.map((i) => i.name)).toEqual(['_id_', after.name]);
  });

  it('reports the replaced definition', async () => {
    const db = new FakeDb();
    await ensureIndex(db, 'a', { name: 'id', keys: { id: 1 } }, () => undefined);
    const { log, lines } = warn();
    await ensureIndex(db, 'a', { name: 'id', keys: { id: 1 }, unique: true }, log);
    expect(lines).toEqual(['content-router: index a.id {"id":1} is replaced by id {"id":1} unique (dropped and recreated)']);
  });

  it('never sends unique: false (MongoDB 5.0 before 5.0.28 would see a conflict on every start)', async () => {
    const sent: unknown[] = [];
    const db = { collection: () => ({ createIndex: async (_k: unknown, o: unknown) => (sent.push(o), 'x'), dropIndex: async () => undefined, listIndexes: () => ({ toArray: async () => [] }) }) };
    await ensureIndex(db, 'a', { name: 'author', keys: { author: 1 } }, () => undefined);
    expect(sent).toEqual([{ name: 'author' }]);
  });

  it('rethrows other errors', async () => {
    const failing = Object.assign(new Error('not authorized'), { code: 13 });
    const db = { collection: () => ({ createIndex: () => Promise.reject(failing), dropIndex: async () => undefined, listIndexes: () => ({ toArray: async () => [] }) }) };
    await expect(ensureIndex(db, 'a', { name: 'x', keys: { x: 1 } }, () => undefined)).rejects.toBe(failing);
  });

  it('a changed definition does not stop the engine from starting', async () => {
    const db = new FakeDb();
    const connection = new FakeConnection(db);
    await connection.open();
    const warnSpy = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const engine = mongoEngine({ connection, transactions: false });
    try {
      await expectUnsafeWritesWarning(async () => {
        await engine.init([{ name: 'articles', indexes: [{ name: 'doc', keys: { documentId: 1 }, unique: true }] }]);
        await engine.init([{ name: 'articles', indexes: [{ name: 'doc', keys: { documentId: 1, locale: 1 }, unique: true }] }]);
      });
      expect(db.indexes.get('articles')!.find((i) => i.name === 'doc')!.key).toEqual({ documentId: 1, locale: 1 });
      expect(warnSpy).toHaveBeenCalledTimes(1);
    } finally {
      warnSpy.mockRestore();
      await engine.close();
    }
  });
});
