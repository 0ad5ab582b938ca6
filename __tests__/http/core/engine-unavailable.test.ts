import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { createContentRouter, memoryEngine, mongoEngine, type ContentRouterOptions, type Engine } from '../../../lib';
import { httpComponents, httpContentTypes } from '../../fixtures/http-model';
import { slowStartingEngine } from '../../helpers/failing-engine';
import { everyActionPublic } from '../../helpers/every-action';
import { createTestApp, expectStrapiError } from '../../helpers/http';

/**
 * An engine that cannot start (no MongoDB server, a damaged data file): `router.ready` rejects, the error is
 * logged once with console.error, and every request answers 503 ServiceUnavailableError at once with
 * `Retry-After`, instead of hanging on the connection and ending in a bare 500.
 */
const UNAVAILABLE = 'Service Unavailable: the storage engine did not start';
const STARTING = 'Service Unavailable: the storage engine is still starting';
const UNREACHABLE = 'mongodb://127.0.0.1:1/never?serverSelectionTimeoutMS=300'; // loopback, bounded
const DAMAGED = '{"format":"content-router-memory-snapshot","version":1,"seq":1}\n{"c":"items","rows":[]}\n';

/** MongoDB's monitor reports the refused connection at once, before the attempt gives up (the same outage: once). */
const REFUSED_LINE = /^content-router: MongoDB 127\.0\.0\.1:1 cannot be reached \(connect ECONNREFUSED 127\.0\.0\.1:1\)/;

async function expectUnavailable(engine: Engine, reason: RegExp, before: RegExp[] = []): Promise<void> {
  const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const started = createTestApp({ engine });
    await expect(started).rejects.toThrow(reason);
    expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([...before.map((line) => expect.stringMatching(line)), expect.stringMatching(reason)]);
  } finally {
    // Closed even when an assertion fails: a MongoDB engine's connection would otherwise keep Jest from exiting.
    await engine.close();
    errors.mockRestore();
  }
}

describe('a storage engine that cannot start', () => {
  let dir: string;
  let damaged: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-unavailable-'));
    damaged = join(dir, 'damaged.db');
    await writeFile(damaged, DAMAGED);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('mongoEngine on an unreachable server: ready rejects, logged once', async () => {
    await expectUnavailable(mongoEngine({ uri: UNREACHABLE }), /the MongoDB connection failed/, [REFUSED_LINE]);
  });

  it('memoryEngine on a damaged file: ready rejects, logged once', async () => {
    await expectUnavailable(memoryEngine({ file: damaged }), /damaged/);
  });

  it.each([
    ['mongo', () => mongoEngine({ uri: UNREACHABLE }), () => 'mongoEngine: the MongoDB connection failed: connect ECONNREFUSED 127.0.0.1:1', [REFUSED_LINE]],
    ['memory', () => memoryEngine({ file: damaged }), () => `memory engine: the snapshot ${damaged} is damaged`, []],
  ])('%s: every request answers 503 with Retry-After, the first one and the later ones alike; the cause is logged once', async (_name, make, reason, before) => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const engine = make();
    try {
      const router = createContentRouter({ contentTypes: httpContentTypes, components: httpComponents, engine, i18n: { locales: ['en', 'fr'], defaultLocale: 'en' }, upload: false });
      const app = express().set('env', 'development').use('/api', router); // 503s are not logged as unexpected errors
      const first = await request(app).get('/api/makers'); // sent while the first attempt runs: waits for it
      await expect(router.ready).rejects.toThrow();
      const later = await Promise.all([request(app).get('/api/makers'), request(app).post('/api/makers').send({ data: { title: 'x' } }), request(app).get('/api/setting')]);
      for (const res of [first, ...later]) {
        expectStrapiError(res, 503, 'ServiceUnavailableError', UNAVAILABLE);
        expect(res.body.error.details).toEqual({ reason: 'the storage engine did not start (the cause is in the server log)' });
        expect(res.headers['retry-after']).toBe('5');
      }
      expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([...before.map((line) => expect.stringMatching(line)), expect.stringContaining(reason())]);
    } finally {
      await engine.close();
      errors.mockRestore();
    }
  });
});

/** The router over the HTTP model (every action public), mounted at /api, and its app (router.ready is not awaited). */
function mount(engine: Engine, options: Partial<ContentRouterOptions> = {}) {
  const router = createContentRouter({
    contentTypes: httpContentTypes, components: httpComponents, engine, i18n: { locales: ['en', 'fr'], defaultLocale: 'en' }, upload: false,
    auth: everyActionPublic(httpContentTypes), ...options,
  });
  return { router, app: express().use('/api', router) };
}

describe('a storage engine that is slow to start: requests wait at most readyWaitMS', () => {
  it('then answer 503 "still starting" with Retry-After; once it has started they are served', async () => {
    const slow = slowStartingEngine(memoryEngine({ ephemeral: true }));
    const { router, app } = mount(slow.engine, { readyWaitMS: 1 });
    const early = await Promise.all([request(app).get('/api/makers'), request(app).post('/api/makers').send({ data: { title: 'x' } })]);
    for (const res of early) {
      expectStrapiError(res, 503, 'ServiceUnavailableError', STARTING);
      expect(res.body.error.details).toEqual({ reason: 'the storage engine is still starting' });
      expect(res.headers['retry-after']).toBe('5');
    }
    slow.start();
    await router.ready;
    expect((await request(app).post('/api/makers').send({ data: { title: 'x' } })).status).toBe(201);
    expect((await request(app).get('/api/makers')).body.data).toHaveLength(1);
  });

  it('a request sent within readyWaitMS is served when the start ends in time', async () => {
    const slow = slowStartingEngine(memoryEngine({ ephemeral: true }));
    const { router } = mount(slow.engine); // default: 5000 ms
    let arrived!: () => void;
    const atGate = new Promise<void>((resolve) => (arrived = resolve));
    const app = express().use('/api', (_req, _res, next) => {
      next(); // the router's gate runs now, while the engine is still starting
      arrived();
    }, router);
    const answered = request(app).get('/api/makers').then((res) => res);
    await atGate;
    slow.start();
    await router.ready;
    expect((await answered).status).toBe(200);
  });

  it('a start that fails after the wait: later requests answer the failure, credentials redacted', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const slow = slowStartingEngine(memoryEngine({ ephemeral: true }));
      const { router, app } = mount(slow.engine, { readyWaitMS: 0 });
      expectStrapiError(await request(app).get('/api/makers'), 503, 'ServiceUnavailableError', STARTING);
      slow.fail(new Error('auth failed for mongodb://app:hunter2@db.internal:27017/cms'));
      await expect(router.ready).rejects.toThrow('hunter2'); // the host's own promise keeps the error as it is
      const res = await request(app).get('/api/makers');
      expectStrapiError(res, 503, 'ServiceUnavailableError', UNAVAILABLE);
      expect(res.body.error.details).toEqual({ reason: 'the storage engine did not start (the cause is in the server log)' }); // never the host
      expect(errors).toHaveBeenCalledTimes(1);
      expect(String(errors.mock.calls[0]![0])).toMatch(/did not start.*mongodb:\/\/\*\*\*@db\.internal/);
      expect(String(errors.mock.calls[0]![0])).not.toContain('hunter2');
    } finally {
      errors.mockRestore();
    }
  });

  it.each([-1, 1.5, '5000'])('readyWaitMS is validated: %p is refused', (readyWaitMS) => {
    expect(() => mount(memoryEngine({ ephemeral: true }), { readyWaitMS: readyWaitMS as number })).toThrow(/CR_INVALID_OPTIONS: options\.readyWaitMS must be/);
  });
});
