import { format } from 'node:util';
import createDebug from 'debug';
import request from 'supertest';
import { createTestApp, type TestApp } from '../../helpers/http';

/** `DEBUG=content-router:pipeline` logs each read's compiled pipeline, its collection and its time. */
let t: TestApp;
let lines: string[] = [];
const originalLog = createDebug.log;
let previous = '';

beforeAll(async () => {
  t = await createTestApp();
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
