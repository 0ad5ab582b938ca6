import request from 'supertest';
import { createBlogApp } from '../../examples/blog/app';
import { loadBlogModel } from '../../examples/blog/model';
import { testEngine } from '../helpers/test-engine';
import { blogTokens, startBlogApp, type RunningBlogApp } from '../helpers/conformance/start-blog-app';
import { loadCorpus, USERS_CORPUS_FILE } from '../helpers/conformance/load';
import { replayCorpus } from '../helpers/conformance/replay-corpus';
import type { ReplayRecord } from '../helpers/conformance/types';
import { requestValidator, responseValidator, type ResponseVerdict } from '../helpers/openapi/response-validator';
import type { CorpusCase } from '../helpers/conformance/types';

/**
 * The OpenAPI document is true of real answers: the conformance corpus (367 requests recorded against Strapi, then the 63 of users-permissions) is
 * replayed against the example app, and every answer is checked against the document the app's router generates.
 */
describe('router.openapi() describes the answers of the conformance corpus', () => {
  let blog: RunningBlogApp;
  let records: ReplayRecord[];
  let cases: readonly CorpusCase[];
  beforeAll(async () => {
    blog = await startBlogApp();
    cases = loadCorpus();
    const side = await replayCorpus(cases, blog.base, blogTokens());
    // Then the users-and-permissions corpus on the same server, as it was recorded: its routes are documented too.
    const usersCases = loadCorpus(USERS_CORPUS_FILE);
    const users = await replayCorpus(usersCases, blog.base, blogTokens());
    cases = [...cases, ...usersCases];
    records = [...side.index.map((name) => side.records.get(name)!), ...users.index.map((name) => users.records.get(name)!)];
  }, 180_000);
  afterAll(async () => {
    await blog?.close();
  });

  const verdicts = (doc: ReturnType<RunningBlogApp['router']['openapi']>): { record: ReplayRecord; verdict: ResponseVerdict }[] => {
    const check = responseValidator(doc as never);
    // The v4 answer format (header `Strapi-Response-Format: v4`) is a compatibility mode the document does not describe.
    return records.filter((r) => !r.name.startsWith('misc.v4-format')).map((record) => ({ record, verdict: check(record.request.method, record.request.path, record.status, record.body) }));
  };

  it('validates every answer of a documented route, with its documented status', () => {
    const all = verdicts(blog.router.openapi());
    const problems = all
      .filter(({ verdict }) => verdict.kind === 'invalid' || verdict.kind === 'undocumented-status')
      .map(({ record, verdict }) => `${record.name} ${record.request.method} ${record.request.path} -> ${record.status}: ${JSON.stringify(verdict)}`);
    expect(problems).toEqual([]);
    const counts = all.reduce<Record<string, number>>((acc, { verdict }) => ({ ...acc, [verdict.kind]: (acc[verdict.kind] ?? 0) + 1 }), {});
    process.stdout.write(`openapi: ${JSON.stringify(counts)}\n`);
    expect(counts.valid).toBeGreaterThan(300);
  });

  it('describes the JSON body of every write the API accepted (2xx)', () => {
    const check = requestValidator(blog.router.openapi() as never);
    const byName = new Map(cases.map((c) => [c.name, c]));
    const accepted = records.filter((r) => r.status >= 200 && r.status < 300 && byName.get(r.name)?.body !== undefined);
    const checked = accepted.map((r) => ({ name: r.name, ...check(r.request.method, r.request.path, byName.get(r.name)!.body) })).filter((v) => v.operation);
    expect(checked.filter((v) => v.errors.length > 0)).toEqual([]);
    expect(checked.length).toBeGreaterThan(100);
  });

  it('bites: a document that leaves out an attribute the API answers fails on the answers that carry it', () => {
    const doc = blog.router.openapi();
    const article = doc.components.schemas.Article as { properties: Record<string, unknown> };
    delete article.properties.title;
    const failed = verdicts(doc).filter(({ verdict }) => verdict.kind === 'invalid');
    expect(failed.length).toBeGreaterThan(20);
  });

  it('bites: an error envelope with another shape fails', () => {
    const doc = blog.router.openapi();
    (doc.components.schemas.Error as { properties: { data: unknown } }).properties.data = { type: 'object' };
    expect(verdicts(doc).filter(({ verdict }) => verdict.kind === 'invalid').length).toBeGreaterThan(20);
  });
});

describe('router.openapi() describes the answers of the seeded example app', () => {
  const reads = [
    '/api/articles?populate=*',
    '/api/articles?populate[blocks][populate]=*&populate[cover]=true&populate[author][populate]=*&populate[categories][populate][parent]=true',
    '/api/articles?populate[categories][count]=true',
    '/api/articles?fields[0]=title&locale=*&pagination[start]=0&pagination[limit]=2',
    '/api/articles?status=draft&populate=*&pagination[withCount]=false',
    '/api/articles?locale=fr&populate[localizations]=true',
    '/api/categories?populate[articles][populate][author][populate][avatar]=true&sort=name:desc',
    '/api/authors?populate=*',
    '/api/global?populate=*',
    '/api/about?populate[blocks][populate]=*',
    '/api/upload/files',
    '/api/i18n/locales',
    '/api/articles?filters[nope][$eq]=1',
    '/api/articles/not-a-document',
  ];
  let blog: Awaited<ReturnType<typeof createBlogApp>>;
  const token = loadBlogModel().permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;
  beforeAll(async () => {
    blog = await createBlogApp({ engine: testEngine() });
  });
  afterAll(() => blog?.close());

  it.each(reads)('%s', async (url) => {
    const res = await request(blog.app).get(url).set('authorization', `Bearer ${token}`);
    const verdict = responseValidator(blog.router.openapi() as never)('GET', url, res.status, res.body);
    expect(verdict).toEqual({ kind: 'valid', operation: expect.any(String) });
  });
});
