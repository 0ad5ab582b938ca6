import request from 'supertest';
import { EngineUnavailableError } from '../../../lib/engine';
import { mapMongoError } from '../../../lib/engine/mongo/map-mongo-error';
import { mapReadLimit } from '../../../lib/engine/mongo/read-time-limit';
import { failingEngine } from '../../helpers/failing-engine';
import { everyActionPublic } from '../../helpers/every-action';
import { httpContentTypes } from '../../fixtures/http-model';
import { createTestApp, expectNoStack } from '../../helpers/http';
import { testEngine } from '../../helpers/test-engine';

/** A driver error as the Node driver names them (MongoError subclasses set `name`). */
function driverError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

describe('a database that cannot be reached after start-up', () => {
  it.each(['MongoServerSelectionError', 'MongoNetworkError', 'MongoNetworkTimeoutError', 'MongoNotConnectedError', 'MongoTopologyClosedError', 'MongoPoolClearedError'])(
    'the MongoDB engine maps %s to EngineUnavailableError, on reads and writes',
    (name) => {
      const error = driverError(name, 'connect ECONNREFUSED 10.0.0.5:27017');
      expect(mapMongoError(error, 'articles')).toBeInstanceOf(EngineUnavailableError);
      expect(mapReadLimit(error, 1000)).toBeInstanceOf(EngineUnavailableError);
    },
  );

  it('maps the real driver classes (mongodb, under mongoose)', () => {
    // Constructed as the driver does internally (MongoServerSelectionError also takes the topology's description).
    const driver = require('mongodb') as Record<string, new (message: string, reason?: unknown) => Error>;
    for (const name of ['MongoNetworkError', 'MongoNetworkTimeoutError', 'MongoNotConnectedError', 'MongoTopologyClosedError']) {
      expect(mapMongoError(new driver[name]!('down'), 'articles')).toBeInstanceOf(EngineUnavailableError);
    }
    expect(mapReadLimit(new driver.MongoServerSelectionError!('Server selection timed out after 5000 ms', {}), 1000)).toBeInstanceOf(EngineUnavailableError);
  });

  it('leaves other driver errors alone', () => {
    const other = driverError('MongoServerError', 'bad');
    expect(mapMongoError(other, 'articles')).toBe(other);
    expect(mapReadLimit(other, 1000)).toBe(other);
  });

  it('answers 503 with Retry-After and no cause, and does not report it as an unexpected error', async () => {
    const failing = failingEngine(testEngine());
    const onError = jest.fn();
    const { app } = await createTestApp({ engine: failing.engine, auth: everyActionPublic(httpContentTypes), onError });
    failing.failReads('makers', new EngineUnavailableError(driverError('MongoServerSelectionError', 'Server selection timed out after 5000 ms: db-7.internal:27017')));
    const res = await request(app).get('/api/makers');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({
      data: null,
      error: { status: 503, name: 'ServiceUnavailableError', message: 'Service Unavailable: the database cannot be reached', details: { reason: 'the database cannot be reached (the cause is in the server log)' } },
    });
    expect(JSON.stringify(res.body)).not.toContain('db-7');
    expectNoStack(res);
    expect(onError).not.toHaveBeenCalled();
    failing.heal();
    expect((await request(app).get('/api/makers')).status).toBe(200);
  });
});
