import { EventEmitter } from 'node:events';
import mongoose from 'mongoose';
import { mongoEngine, type Engine } from '../../../lib/engine';
import type { Logger } from '../../../lib/errors/logger';
import { driverTimeouts, onUnreachable, watchConnection } from '../../../lib/engine/mongo/connection-health';
import { FakeConnection, FakeDb } from './fake-mongo';

/** A logger that keeps its lines, by level. */
function recorder(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) };
}

/** A connection as mongoose.createConnection(uri) returns it: with a driver client that emits SDAM events. */
class FakeUriConnection extends FakeConnection {
  readonly client = Object.assign(new EventEmitter(), { options: { serverSelectionTimeoutMS: 5000 } });
  closed = 0;
  override getClient(): unknown {
    return this.client;
  }
  async close(): Promise<void> {
    this.closed++;
  }
  /** What mongoose does when the monitor loses the server: readyState 0 and 'disconnected'; then 'reconnected'. */
  lose(): void {
    this.readyState = 0;
    this.emit('disconnected');
  }
  regain(): void {
    this.readyState = 1;
    this.emit('reconnected');
  }
}

const specs = [{ name: 'articles', indexes: [] }];

describe('driverTimeouts: the engine connection string gets timeouts that answer within seconds', () => {
  it.each([
    ['defaults', 'mongodb://db/cms', {}, { serverSelectionTimeoutMS: 5000, connectTimeoutMS: 10000 }],
    ['the connection string keeps its own', 'mongodb://db/cms?replicaSet=rs0&serverSelectionTimeoutMS=300', {}, { connectTimeoutMS: 10000 }],
    ['connection string options are case-insensitive', 'mongodb://db/?CONNECTTIMEOUTMS=1', {}, { serverSelectionTimeoutMS: 5000 }],
    ['an engine option wins', 'mongodb://db/?serverSelectionTimeoutMS=300', { serverSelectionTimeoutMS: 2000, connectTimeoutMS: 3000 }, { serverSelectionTimeoutMS: 2000, connectTimeoutMS: 3000 }],
  ])('%s', (_label, uri, options, expected) => {
    expect(driverTimeouts(uri, options)).toEqual(expected);
  });

  it.each([
    ['serverSelectionTimeoutMS 0', { uri: 'mongodb://db', serverSelectionTimeoutMS: 0 }, '`serverSelectionTimeoutMS` must be a positive integer'],
    ['connectTimeoutMS 1.5', { uri: 'mongodb://db', connectTimeoutMS: 1.5 }, '`connectTimeoutMS` must be a positive integer'],
    ['a timeout with the host\'s connection', { connection: new FakeConnection(), connectTimeoutMS: 1000 }, "apply to the engine's own connection (`uri`)"],
    ['a misspelled timeout', { uri: 'mongodb://db', serverSelectionTimeoutMs: 1000 }, 'did you mean "serverSelectionTimeoutMS"?'],
  ])('refuses %s', (_label, options, message) => {
    expect(() => mongoEngine(options as never)).toThrow(message);
  });
});

describe('a database that cannot be reached is logged at once', () => {
  it('onUnreachable reports the first failed heartbeat, with the server, the reason and what happens next', () => {
    const client = new EventEmitter();
    const lines: string[] = [];
    onUnreachable(client, 5000, (line) => lines.push(line));
    client.emit('serverHeartbeatFailed', { connectionId: '127.0.0.1:1', failure: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    client.emit('serverHeartbeatFailed', { connectionId: '127.0.0.1:1', failure: new Error('again') });
    expect(lines).toEqual([
      'content-router: MongoDB 127.0.0.1:1 cannot be reached (connect ECONNREFUSED 127.0.0.1:1); the driver keeps trying for 5000 ms (serverSelectionTimeoutMS), then start-up fails and is retried later',
    ]);
    expect(client.listenerCount('serverHeartbeatFailed')).toBe(0);
  });

  it('credentials in the reason are redacted', () => {
    const client = new EventEmitter();
    const lines: string[] = [];
    onUnreachable(client, 5000, (line) => lines.push(line));
    client.emit('serverHeartbeatFailed', { connectionId: 'db:27017', failure: new Error('bad mongodb://app:s3cret@db:27017') });
    expect(lines[0]).toContain('mongodb://***@db:27017');
    expect(lines[0]).not.toContain('s3cret');
  });

  describe('with the real driver on a closed port (loopback port 1)', () => {
    let engine: Engine;
    afterEach(() => engine.close());

    it('logs the refused connection before start-up fails, once for two attempts', async () => {
      const logger = recorder();
      engine = mongoEngine({ uri: 'mongodb://127.0.0.1:1/never', serverSelectionTimeoutMS: 300 });
      const failed = engine.init([], { logger });
      let settled = false;
      failed.catch(() => (settled = true));
      await new Promise<void>((resolve) => {
        const poll = (): void => void (logger.lines.length > 0 || settled ? resolve() : setTimeout(poll, 10));
        poll();
      });
      expect(settled).toBe(false); // the line came before the attempt gave up
      expect(logger.lines).toEqual([expect.stringMatching(/^error content-router: MongoDB 127\.0\.0\.1:1 cannot be reached \(connect ECONNREFUSED 127\.0\.0\.1:1\); the driver keeps trying for 300 ms/)]);
      await expect(failed).rejects.toThrow(/mongoEngine: the MongoDB connection failed: .*ECONNREFUSED/);
      await expect(engine.init([], { logger })).rejects.toThrow(/ECONNREFUSED/);
      expect(logger.lines).toHaveLength(1);
    });

    it('close() during an attempt ends it at once (mongoose alone waits until server selection gives up: 10 min here)', async () => {
      engine = mongoEngine({ uri: 'mongodb://127.0.0.1:1/never', serverSelectionTimeoutMS: 600_000 });
      const attempt = engine.init([], { logger: recorder() });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await engine.close();
      await expect(attempt).rejects.toThrow('mongoEngine: closed before its connection opened');
    }, 20_000);
  });
});

describe('the engine connection string path (mongoose.createConnection replaced by a fake)', () => {
  let spy: jest.SpyInstance;
  afterEach(() => spy.mockRestore());

  function engineOn(connection: FakeUriConnection, uri = 'mongodb://db/cms?replicaSet=rs0'): Engine {
    spy = jest.spyOn(mongoose, 'createConnection').mockReturnValue(connection as never);
    return mongoEngine({ uri });
  }

  it('gives the driver the default timeouts', async () => {
    const connection = new FakeUriConnection();
    const engine = engineOn(connection);
    void connection.open();
    await engine.init(specs, { logger: recorder() });
    expect(spy).toHaveBeenCalledWith('mongodb://db/cms?replicaSet=rs0', { serverSelectionTimeoutMS: 5000, connectTimeoutMS: 10000 });
    await engine.close();
  });

  it('healthy() follows the connection, and its loss and return are logged', async () => {
    const connection = new FakeUriConnection();
    const engine = engineOn(connection);
    const logger = recorder();
    expect(engine.healthy!()).toBe(false);
    void connection.open();
    await engine.init(specs, { logger });
    expect(engine.healthy!()).toBe(true);
    connection.lose();
    expect(engine.healthy!()).toBe(false);
    connection.regain();
    expect(engine.healthy!()).toBe(true);
    expect(logger.lines).toEqual([
      'error content-router: the MongoDB connection is lost (no primary can be reached); the health route answers 503 until it is back',
      'warn content-router: the MongoDB connection is back',
    ]);
    await engine.close();
    expect(engine.healthy!()).toBe(false);
    expect(connection.listenerCount('disconnected')).toBe(0);
  });

  it('describe() names the database with credentials redacted', () => {
    const engine = engineOn(new FakeUriConnection(), 'mongodb://app:s3cret@db:27017/cms?replicaSet=rs0');
    expect(engine.describe!()).toBe('mongo mongodb://***@db:27017/cms?replicaSet=rs0');
  });

  it('a connection on a server without transactions is closed before start-up fails (a retry opens a new one)', async () => {
    const db = new FakeDb();
    db.admin = () => ({ command: async () => ({ isWritablePrimary: true }) });
    const connection = new FakeUriConnection(db);
    const engine = engineOn(connection);
    void connection.open();
    await expect(engine.init(specs, { logger: recorder() })).rejects.toThrow('CR_NO_TRANSACTIONS');
    expect(connection.closed).toBe(1);
    expect(engine.healthy!()).toBe(false);
  });
});

describe('watchConnection', () => {
  it('stops listening when asked', () => {
    const connection = new EventEmitter();
    const logger = recorder();
    const stop = watchConnection(connection, logger);
    stop();
    connection.emit('disconnected');
    expect(logger.lines).toEqual([]);
  });
});

describe('mongoEngine without mongoose installed', () => {
  afterEach(() => {
    jest.dontMock('mongoose');
    jest.resetModules();
  });

  /** mongoEngine from a fresh module registry where `require('mongoose')` does what `mock` does. */
  function mongoEngineWith(mock: () => unknown): typeof mongoEngine {
    let factory: typeof mongoEngine | undefined;
    jest.isolateModules(() => {
      jest.doMock('mongoose', mock);
      factory = (require('../../../lib/engine/mongo/mongo-engine') as { mongoEngine: typeof mongoEngine }).mongoEngine;
    });
    return factory!;
  }

  it('fails when the engine is created, with the install command (Node\'s MODULE_NOT_FOUND)', () => {
    const create = mongoEngineWith(() => {
      throw Object.assign(new Error("Cannot find module 'mongoose'\nRequire stack:\n- /app/node_modules/content-router/dist/engine/mongo/load-mongoose.js"), { code: 'MODULE_NOT_FOUND' });
    });
    expect(() => create({ uri: 'mongodb://db/cms' })).toThrow(
      expect.objectContaining({ name: 'ConfigurationError', code: 'CR_MISSING_DEPENDENCY', message: expect.stringMatching(/needs mongoose, .* not installed\. Install it in your app: npm install mongoose$/) }),
    );
  });

  it('a mongoose older than 8 is refused the same way', () => {
    const create = mongoEngineWith(() => ({ version: '7.6.3' }));
    expect(() => create({ uri: 'mongodb://db/cms' })).toThrow('CR_MISSING_DEPENDENCY: mongoEngine() needs mongoose 8 or later; 7.6.3 is installed: npm install mongoose@latest');
  });

  it('a mongoose that is installed but fails to load throws its own error', () => {
    const create = mongoEngineWith(() => {
      throw Object.assign(new Error("Cannot find module 'mongodb'"), { code: 'MODULE_NOT_FOUND' });
    });
    expect(() => create({ uri: 'mongodb://db/cms' })).toThrow("Cannot find module 'mongodb'");
  });
});
