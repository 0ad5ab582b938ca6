import { createServer, type Server } from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { ContentRouter } from '../../../lib';
import { createBlogApp } from '../../../examples/blog/app';
import { expectStrapiError } from '../../helpers/http';
import { testEngine } from '../../helpers/test-engine';

/**
 * Text operators run as escaped regular expressions. A value longer than V8's pattern limit (~64K characters;
 * MongoDB's is 32K bytes) was a 500 "Invalid regular expression: too large" once the URL could carry it (a host
 * with a larger `maxHeaderSize`, or the document service). Operands over 8192 characters are a 400.
 */
let server: Server;
let router: ContentRouter;
let close: () => Promise<void>;
const FULL = 'Bearer oracle-full-access-token-7f3a9c1e5b2d4f6a8c0e1b3d5f7a9c2e';

beforeAll(async () => {
  const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'text-filters-'));
  const blog = await createBlogApp({ seed: true, uploadsDir, engine: testEngine() });
  ({ router, close } = blog);
  server = createServer({ maxHeaderSize: 4 * 1024 * 1024 }, blog.app);
});
afterAll(async () => {
  server.close();
  await close();
});

describe('long text operands', () => {
  const operators = ['$contains', '$containsi', '$notContains', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$eqi', '$nei'];

  it('8192 characters are matched literally', async () => {
    const res = await request(server).get(`/api/articles?filters[title][$containsi]=${'(a+)+'.repeat(1638)}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it.each(operators)('%s with 100 000 characters is a 400, not a 500', async (op) => {
    const res = await request(server).get(`/api/articles?filters[title][${op}]=${'a'.repeat(100_000)}`);
    expectStrapiError(res, 400, 'ValidationError', `Invalid value for ${op} at title: longer than 8192 characters`);
  });

  it('the document service refuses it too', async () => {
    await expect(router.documents('api::article.article').findMany(`filters[title][$containsi]=${'a'.repeat(100_000)}`)).rejects.toThrow(
      'longer than 8192 characters',
    );
  });

  it('the upload files filters too', async () => {
    const res = await request(server).get(`/api/upload/files?filters[name][$containsi]=${'a'.repeat(100_000)}`).set('Authorization', FULL);
    expectStrapiError(res, 400, 'ValidationError', 'Invalid value for $containsi at name: longer than 8192 characters');
  });
});

describe('how many text conditions', () => {
  const or = (n: number, field = 'title'): string => Array.from({ length: n }, (_v, i) => `filters[$or][${i}][${field}][$containsi]=w${i}`).join('&');

  it('20 text conditions are read; more are a 400 (each is a regular expression tested on every candidate row)', async () => {
    expect((await request(server).get(`/api/articles?${or(20)}`)).status).toBe(200);
    const res = await request(server).get(`/api/articles?${or(21)}`);
    expectStrapiError(res, 400, 'ValidationError', 'Invalid filters parameter: more than 20 text conditions');
    expect(res.body.error.details).toEqual({ key: 'filters', path: null, source: 'query', param: 'filters' });
  });

  it('conditions through relations, $not and populate filters count too; $in lists and equalities do not', async () => {
    const through = `${or(10)}&filters[$and][0][categories][name][$not][$containsi]=a&${or(10).replace(/\$or\]\[(\d+)\]/g, '$or][1$1]')}`;
    expectStrapiError(await request(server).get(`/api/articles?${through}`), 400, 'ValidationError', 'Invalid filters parameter: more than 20 text conditions');
    const populate = Array.from({ length: 21 }, (_v, i) => `populate[categories][filters][$or][${i}][name][$containsi]=w${i}`).join('&');
    expectStrapiError(await request(server).get(`/api/articles?${populate}`), 400, 'ValidationError', 'Invalid populate parameter: more than 20 text conditions');
    const cheap = `${Array.from({ length: 300 }, (_v, i) => `filters[title][$in][${i}]=t${i}`).join('&')}&${or(20)}`;
    expect((await request(server).get(`/api/articles?${cheap}`)).status).toBe(200);
  });
});
