import { AsyncLocalStorage } from 'node:async_hooks';
import express from 'express';
import request from 'supertest';
import { createContentRouter } from '../../../lib';
import { memoryEngine, mongoEngine, ReadLimitError, remainingTime, withReadBudget } from '../../../lib/engine';
import { DEFAULT_MAX_TIME_MS } from '../../../lib/engine/mongo/read-time-limit';
import { httpComponents, httpContentTypes } from '../../fixtures/http-model';
import { fakeConnection } from './fake-connection';

/** MongoDB's answer to a read over its maxTimeMS (https://www.mongodb.com/docs/manual/reference/method/cursor.maxTimeMS/). */
const maxTimeExpired = (): Error => Object.assign(new Error('operation exceeded time limit'), { code: 50, codeName: 'MaxTimeMSExpired' });

describe('mongoEngine read limits: maxTimeMS', () => {
  it.each([
    ['the default', undefined, DEFAULT_MAX_TIME_MS],
    ['an option', 250, 250],
    ['0 (none)', 0, undefined],
  ])('sends %s as the maxTimeMS of every aggregate, find and count', async (_name, maxTimeMS, sent) => {
    const { connection, reads } = fakeConnection();
    const engine = mongoEngine({ connection, ...(maxTimeMS === undefined ? {} : { maxTimeMS }) });
    await engine.aggregate('articles', []);
    await engine.find('articles', {});
    await engine.count('articles', {});
    expect(reads.options.map((r) => [r.op, r.options.maxTimeMS])).toEqual([['aggregate', sent], ['find', sent], ['count', sent]]);
  });

  it.each([-1, 1.5, '100'])('refuses maxTimeMS %p', (maxTimeMS) => {
    const { connection } = fakeConnection();
    expect(() => mongoEngine({ connection, maxTimeMS: maxTimeMS as number })).toThrow('`maxTimeMS` must be a non-negative integer');
  });

  it.each(['aggregate', 'find', 'count'] as const)('turns MaxTimeMSExpired (code 50) of %s into a ReadLimitError', async (op) => {
    const { connection } = fakeConnection({ readError: maxTimeExpired() });
    const engine = mongoEngine({ connection, maxTimeMS: 300 });
    const read = op === 'aggregate' ? engine.aggregate('a', []) : op === 'find' ? engine.find('a', {}) : engine.count('a', {});
    await expect(read).rejects.toBeInstanceOf(ReadLimitError);
    await expect(read).rejects.toMatchObject({ limit: 'time', max: 300 });
  });

  it.each([
    [4568, 'Location4568'],
    [4031700, 'Location4031700'],
    [292, 'QueryExceededMemoryLimitNoDiskUseAllowed'],
  ])('turns the size error %i (%s) into a ReadLimitError and a 400', async (code, codeName) => {
    const { connection } = fakeConnection({ readError: Object.assign(new Error('too large'), { code, codeName }) });
    await expect(mongoEngine({ connection }).aggregate('a', [])).rejects.toMatchObject({ name: 'ReadLimitError', limit: 'size' });
    const router = createContentRouter({ contentTypes: httpContentTypes, components: httpComponents, engine: mongoEngine({ connection }), auth: { public: { actions: ['api::gadget.gadget.find'] } } });
    const res = await request(express().use('/api', router)).get('/api/gadgets');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ name: 'ValidationError', details: { limit: 'documentSize' } });
  });

  it('keeps other server errors as they are', async () => {
    const other = Object.assign(new Error('boom'), { code: 2 });
    const { connection } = fakeConnection({ readError: other });
    await expect(mongoEngine({ connection }).aggregate('a', [])).rejects.toBe(other);
  });

  it('answers a read over its time limit with a 400 ValidationError naming the limit, not a 5xx', async () => {
    const { connection } = fakeConnection({ readError: maxTimeExpired() });
    const router = createContentRouter({ contentTypes: httpContentTypes, components: httpComponents, engine: mongoEngine({ connection }), auth: { public: { actions: ['api::gadget.gadget.find'] } } });
    const app = express().use('/api', router);
    const res = await request(app).get('/api/gadgets');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      name: 'ValidationError',
      message: `The query exceeded its time limit of ${DEFAULT_MAX_TIME_MS} ms`,
      details: { limit: 'maxTimeMS', option: 'mongoEngine({ maxTimeMS })', max: DEFAULT_MAX_TIME_MS },
    });
  });
});

describe('mongoEngine read limits: one time budget per request (engine/read-budget)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('gives each read of a budget what is left of maxTimeMS, and refuses a read with nothing left before sending it', async () => {
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const { connection, reads } = fakeConnection();
    const engine = mongoEngine({ connection, maxTimeMS: 1000 });
    const sent = await withReadBudget(engine, async () => {
      await engine.count('articles', {});
      now += 300;
      await engine.aggregate('articles', []);
      now += 650;
      await engine.find('articles', {});
      now += 50;
      await expect(engine.aggregate('articles', [])).rejects.toMatchObject({ name: 'ReadLimitError', limit: 'time', max: 1000 });
      return reads.options.map((r) => [r.op, r.options.maxTimeMS]);
    });
    expect(sent).toEqual([['count', 1000], ['aggregate', 700], ['find', 50]]);
    // Outside a budget (and in the next one) every read has the whole limit again.
    await engine.count('articles', {});
    await withReadBudget(engine, () => engine.count('articles', {}));
    expect(reads.options.slice(-2).map((r) => r.options.maxTimeMS)).toEqual([1000, 1000]);
  });

  it('runs the reads of one GET in one budget (documents/read-documents)', async () => {
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const left: number[] = [];
    const { connection } = fakeConnection({
      onAggregate: () => {
        now += 400; // the read took 400 ms: what is left for the next read of the same request
        left.push(remainingTime(1000));
        return [];
      },
    });
    const router = createContentRouter({ contentTypes: httpContentTypes, components: httpComponents, engine: mongoEngine({ connection, maxTimeMS: 1000 }), auth: { public: { actions: ['api::gadget.gadget.find'] } } });
    const res = await request(express().use('/api', router)).get('/api/gadgets');
    expect(res.status).toBe(200);
    expect(left).toEqual([600]);
  });

  it('is not kept for an engine without a time limit per read: no AsyncLocalStorage runs for a memory engine GET', async () => {
    const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    const engine = memoryEngine({ ephemeral: true });
    const router = createContentRouter({ contentTypes: httpContentTypes, components: httpComponents, engine, auth: { public: { actions: ['api::gadget.gadget.find'] } } });
    const app = express().use('/api', router);
    expect((await request(app).get('/api/gadgets')).status).toBe(200);
    expect(run).not.toHaveBeenCalled();
    // The budget itself still runs for an engine that asks for it.
    await withReadBudget({ readTimeBudget: true }, async () => undefined);
    expect(run).toHaveBeenCalledTimes(1);
    await engine.close();
  });
});

describe('mongoEngine read limits: rows read one by one', () => {
  it('calls onRow on each row as the cursor yields it, and stops reading (closing the cursor) when it throws', async () => {
    const { connection, reads } = fakeConnection({ aggregateDocs: [{ n: 1 }, { n: 2 }, { n: 3 }] });
    const engine = mongoEngine({ connection });
    const seen: unknown[] = [];
    const stop = new ReadLimitError('joinedRows', 1, ['categories']);
    const read = engine.aggregate('a', [], { onRow: (row) => { seen.push(row.n); if (row.n === 2) throw stop; } });
    await expect(read).rejects.toBe(stop);
    expect(seen).toEqual([1, 2]);
    expect(reads).toMatchObject({ yielded: 2, closed: 1 });
  });

  it('returns every row when onRow accepts them', async () => {
    const { connection } = fakeConnection({ aggregateDocs: [{ n: 1 }, { n: 2 }] });
    await expect(mongoEngine({ connection }).aggregate('a', [], { onRow: () => undefined })).resolves.toEqual([{ n: 1 }, { n: 2 }]);
  });
});
