import { blogTokens, startBlogApp, type RunningBlogApp } from '../helpers/conformance/start-blog-app';
import { loadCorpus } from '../helpers/conformance/load';
import { replayCorpus } from '../helpers/conformance/replay-corpus';
import type { ReplayRecord } from '../helpers/conformance/types';
import { responseValidator, type ResponseVerdict } from '../helpers/openapi/response-validator';

/**
 * The OpenAPI document is true of real answers: the conformance corpus (367 requests recorded against Strapi) is
 * replayed against the example app, and every answer is checked against the document the app's router generates.
 */
describe('router.openapi() describes the answers of the conformance corpus', () => {
  let blog: RunningBlogApp;
  let records: ReplayRecord[];
  beforeAll(async () => {
    blog = await startBlogApp();
    const side = await replayCorpus(loadCorpus(), blog.base, blogTokens());
    records = side.index.map((name) => side.records.get(name)!);
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
