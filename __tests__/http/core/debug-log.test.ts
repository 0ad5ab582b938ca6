import { format } from 'node:util';
import createDebug from 'debug';
import request from 'supertest';
import { failingEngine, type FailingEngine } from '../../helpers/failing-engine';
import { createTestApp, expectStrapiError, type TestApp } from '../../helpers/http';
import { testEngine } from '../../helpers/test-engine';

/**
 * `DEBUG=content-router:pipeline` logs each read's compiled pipeline, its collection and its time, and a read
 * that fails with its error too (the engine is the test engine, memory or MongoDB, whose reads the test can fail).
 */
let t: TestApp;
let failing: FailingEngine;
let lines: string[] = [];
const originalLog = createDebug.log;
let previous = '';

beforeAll(async () => {
  failing = failingEngine(testEngine());
  t = await createTestApp({ engine: failing.engine });
  await request(t.app).post('/api/makers').send({ data: { title: 'Logged' } });
  await request(t.app).put('/api/setting').send({ data: { siteName: 'S' } });
  previous = createDebug.disable();
  createDebug.enable('content-router:pipeline');
  // debug leaves %s/%d/%j to the log function (util.format in Node).
  createDebug.log = (...args: unknown[]) => {
    lines.push(format(...args));
  };
});
afterAll(() => {
  createDebug.log = originalLog;
  createDebug.disable();
  if (previous) createDebug.enable(previous);
});
beforeEach(() => {
  lines = [];
  failing.heal();
});

/** The pipelines logged for `collection` (the JSON after "<collection> <n>ms "). */
function pipelines(collection: string): unknown[] {
  return lines
    .map((l) => new RegExp(`content-router:pipeline ${collection} \\d+ms (\\[.*\\])`).exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => JSON.parse(m[1]!));
}

it('a list logs one pipeline with $match, $sort, the page and the $unionWith of the total', async () => {
  await request(t.app).get('/api/makers?filters[title][$eq]=Logged&sort=title');
  const logged = pipelines('makers');
  expect(logged).toHaveLength(1);
  const stages = (logged[0] as Record<string, unknown>[]).map((s) => Object.keys(s)[0]);
  expect(stages).toEqual(expect.arrayContaining(['$match', '$sort', '$limit', '$setWindowFields', '$unionWith']));
  expect(JSON.stringify(logged[0])).toContain('Logged');
});

it('findOne and a single type log their pipeline too', async () => {
  const list = await request(t.app).get('/api/makers');
  await request(t.app).get(`/api/makers/${list.body.data[0].documentId}`);
  await request(t.app).get('/api/setting');
  expect(pipelines('makers').length).toBeGreaterThanOrEqual(2);
  expect(pipelines('settings').length).toBeGreaterThanOrEqual(1);
});

it('logs nothing when the namespace is off', async () => {
  createDebug.disable();
  await request(t.app).get('/api/makers');
  createDebug.enable('content-router:pipeline');
  expect(lines).toEqual([]);
});

/** The failed reads logged for `collection`: the error, and the pipeline. */
function failures(collection: string): { error: string; pipeline: unknown }[] {
  return lines
    .map((l) => new RegExp(`content-router:pipeline ${collection} failed after \\d+ms: (.*?) (\\[.*\\])`).exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ error: m[1]!, pipeline: JSON.parse(m[2]!) }));
}

describe('a read that fails', () => {
  let errors: jest.SpyInstance;
  beforeEach(() => {
    errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => errors.mockRestore());

  it('a list logs its pipeline with the error (credentials redacted), and answers a bare 500', async () => {
    const list = await request(t.app).get('/api/makers');
    lines = [];
    failing.failReads('makers', new Error('lost mongodb://app:pw@db.internal:27017/cms\nsecond line'));
    const res = await request(t.app).get('/api/makers?filters[title][$eq]=Logged');
    expectStrapiError(res, 500, 'InternalServerError', 'Internal Server Error');
    const logged = failures('makers');
    expect(logged).toHaveLength(1);
    expect(logged[0]!.error).toBe('Error: lost mongodb://***@db.internal:27017/cms second line');
    expect(JSON.stringify(logged[0]!.pipeline)).toContain('Logged');
    expect(pipelines('makers')).toEqual([]); // not logged as a success
    expect(list.status).toBe(200);
  });

  it('findOne and a single type log theirs too', async () => {
    const list = await request(t.app).get('/api/makers');
    failing.failReads('makers', new RangeError('boom'));
    failing.failReads('settings', 'not an Error');
    await request(t.app).get(`/api/makers/${list.body.data[0].documentId}`);
    await request(t.app).get('/api/setting');
    expect(failures('makers').map((f) => f.error)).toEqual(['RangeError: boom']);
    expect(failures('settings').map((f) => f.error)).toEqual(['not an Error']);
  });
});

it('DEBUG=content-router:error writes a client error by status and name, not its message or details (they echo the body)', async () => {
  createDebug.enable('content-router:pipeline,content-router:error');
  try {
    const res = await request(t.app).put('/api/setting').send({ data: { siteName: { $gt: 'body-5ecret' } } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.error.details)).toContain('5ecret'); // the details do echo it
  } finally {
    createDebug.enable('content-router:pipeline');
  }
  const errorLines = lines.filter((l) => l.includes('content-router:error'));
  expect(errorLines).toEqual([expect.stringMatching(/content-router:error 400 PUT \/api\/setting: ValidationError($| \+\d+ms$)/)]);
  expect(errorLines.join('\n')).not.toContain('5ecret');
});
