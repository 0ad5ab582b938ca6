import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { createContentRouter, memoryEngine, mongoEngine, type Engine } from '../../../lib';
import { httpComponents, httpContentTypes } from '../../fixtures/http-model';
import { createTestApp, expectStrapiError } from '../../helpers/http';

/**
 * An engine that cannot start (no MongoDB server, a damaged data file): `router.ready` rejects, the error is
 * logged once with console.error, and every request answers 503 ServiceUnavailableError at once with
 * `Retry-After`, instead of hanging on the connection and ending in a bare 500.
 */
const UNAVAILABLE = 'Service Unavailable: the storage engine is unavailable';
const UNREACHABLE = 'mongodb://127.0.0.1:1/never?serverSelectionTimeoutMS=300'; // loopback, bounded
const DAMAGED = '{"format":"content-router-memory-snapshot","version":1,"seq":1}\n{"c":"items","rows":[]}\n';

async function expectUnavailable(engine: Engine, reason: RegExp): Promise<void> {
  const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const started = createTestApp({ engine });
    await expect(started).rejects.toThrow(reason);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]![0])).toMatch(reason);
    await engine.close();
  } finally {
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
    await expectUnavailable(mongoEngine({ uri: UNREACHABLE }), /the MongoDB connection failed/);
  });

  it('memoryEngine on a damaged file: ready rejects, logged once', async () => {
    await expectUnavailable(memoryEngine({ file: damaged }), /damaged/);
  });

  it.each([
    ['mongo', () => mongoEngine({ uri: UNREACHABLE })],
    ['memory', () => memoryEngine({ file: damaged })],
  ])('%s: every request answers 503 with Retry-After, the first one and the later ones alike', async (_name, make) => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const engine = make();
    try {
      const router = createContentRouter({ contentTypes: httpContentTypes, components: httpComponents, engine, i18n: { locales: ['en', 'fr'], defaultLocale: 'en' }, upload: false });
      const app = express().use('/api', router);
      const first = await request(app).get('/api/makers'); // sent while the first attempt runs: waits for it
      await expect(router.ready).rejects.toThrow();
      const later = await Promise.all([request(app).get('/api/makers'), request(app).post('/api/makers').send({ data: { title: 'x' } }), request(app).get('/api/setting')]);
      for (const res of [first, ...later]) {
        expectStrapiError(res, 503, 'ServiceUnavailableError', UNAVAILABLE);
        expect(res.body.error.details).toEqual({});
        expect(res.headers['retry-after']).toBe('5');
      }
      expect(errors).toHaveBeenCalledTimes(1);
    } finally {
      await engine.close();
      errors.mockRestore();
    }
  });
});
