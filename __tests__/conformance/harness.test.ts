import { buildRequest } from '../helpers/conformance/build-request';
import { compareCase, compareSides } from '../helpers/conformance/compare';
import { evaluateRatchet, formatSummary, guessArea, updateExpectedFailures } from '../helpers/conformance/expected-failures';
import { startGoldenStub, type GoldenStub } from '../helpers/conformance/golden-stub-server';
import { GOLDEN_DIR, loadCorpus, loadSide } from '../helpers/conformance/load';
import { makePng } from '../helpers/conformance/make-png';
import { buildDocSymbols, normalize } from '../helpers/conformance/normalize';
import { getPath, resolveDeep } from '../helpers/conformance/placeholders';
import { replayCorpus } from '../helpers/conformance/replay-corpus';
import type { ReplayRecord, ReplaySide } from '../helpers/conformance/types';

const TOKENS = { fullToken: 'full-token-for-test', readonlyToken: 'readonly-token-for-test' };
const cases = loadCorpus();
const golden = loadSide(GOLDEN_DIR);

function withRecord(side: ReplaySide, name: string, patch: (r: ReplayRecord) => ReplayRecord): ReplaySide {
  const records = new Map(side.records);
  records.set(name, patch(structuredClone(side.records.get(name)!)));
  return { ...side, records };
}

describe('conformance data', () => {
  it('holds the 367 cases of the corpus, each with a golden answer, in corpus order', () => {
    expect(cases).toHaveLength(367);
    expect(golden.index).toEqual(cases.map((c) => c.name));
    expect(golden.records.size).toBe(367);
  });
});

describe('placeholders', () => {
  it('keeps the type of a whole-string placeholder and splices text into longer strings', () => {
    const missing = new Set<string>();
    const out = resolveDeep({ a: '{{n}}', b: '/x/{{n}}/{{s}}', '{{s}}': ['{{nope}}'] }, { n: 3, s: 'k' }, missing);
    expect(out).toEqual({ a: 3, b: '/x/3/k', k: ['{{nope}}'] });
    expect([...missing]).toEqual(['nope']);
  });

  it('reads dotted paths through arrays and objects', () => {
    expect(getPath({ data: [{ id: 1 }, { id: 2 }] }, 'data.1.id')).toBe(2);
    expect(getPath([{ documentId: 'x' }], '0.documentId')).toBe('x');
    expect(getPath(null, 'data.id')).toBeUndefined();
  });
});

describe('buildRequest', () => {
  it('sends the token of the case and the case headers lower-cased', () => {
    const c = cases.find((x) => x.name === 'misc.v4-format')!;
    const full = buildRequest({ ...c, auth: 'full' }, {}, TOKENS);
    expect(full.init.headers).toMatchObject({ authorization: 'Bearer full-token-for-test', 'strapi-response-format': 'v4' });
    expect(buildRequest({ ...c, auth: 'readonly' }, {}, TOKENS).init.headers).toMatchObject({ authorization: 'Bearer readonly-token-for-test' });
  });

  it('sends raw bodies with their content type', () => {
    const c = cases.find((x) => x.name === 'error.form-body')!;
    const r = buildRequest(c, {}, TOKENS);
    expect(r.init.body).toBe('data[name]=FormCat');
    expect(r.init.headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded' });
  });

  it('reports placeholders that have no capture', () => {
    const c = cases.find((x) => /\{\{/.test(x.path))!;
    expect(buildRequest(c, {}, TOKENS).missing.size).toBeGreaterThan(0);
  });
});

describe('makePng', () => {
  it('is a deterministic PNG with the requested size', () => {
    const a = makePng(20, 10, 2);
    expect(a.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([a.readUInt32BE(16), a.readUInt32BE(20)]).toEqual([20, 10]);
    expect(makePng(20, 10, 2).equals(a)).toBe(true);
    expect(makePng(20, 10, 3).equals(a)).toBe(false);
  });
});

describe('normalize', () => {
  it('maps captured documentIds to their capture names and others by first appearance', () => {
    const docs = buildDocSymbols(golden);
    expect(docs.get(golden.captures['author.ann'] as string)).toBe('<author.ann>');
    const side: ReplaySide = { index: ['x'], captures: {}, records: new Map([['x', { name: 'x', request: { method: 'GET', path: '/', auth: 'none' }, status: 200, headers: {}, body: { data: [{ documentId: 'b' }, { documentId: 'a' }] } }]]) };
    expect([...buildDocSymbols(side)]).toEqual([['b', '<doc#1>'], ['a', '<doc#2>']]);
  });

  it('replaces ids, timestamps, media hashes and (loose media) sizes', () => {
    const ctx = { docs: new Map([['abcdefghijabcdefghijabcd', '<art.a>']]), looseMedia: true };
    const body = { id: 4, size: 1.5, hash: 'x_0123456789', url: '/uploads/x_0123456789.png', createdAt: '2026-01-01T00:00:00.000Z', message: 'Document abcdefghijabcdefghijabcd not found' };
    expect(normalize(body, ctx)).toEqual({ id: '<id>', size: '<n>', hash: '<hash>', url: '/uploads/x_<hash>.png', createdAt: '<ts>', message: 'Document <art.a> not found' });
    expect(normalize({ id: 4, size: 1.5 }, { docs: new Map(), strictIds: true })).toEqual({ id: 4, size: 1.5 });
  });

  it('replaces the users-permissions jwt (signed and time-stamped), as compare.mjs does', () => {
    const body = { jwt: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6MX0.sig', user: { username: 'jwt' } };
    expect(normalize(body, { docs: new Map() })).toEqual({ jwt: '<jwt>', user: { username: 'jwt' } });
  });
});

describe('compare', () => {
  it('passes every case of the golden compared with itself, and with itself under --strict-ids', () => {
    expect(compareSides(golden, golden, cases, { looseMedia: true }).filter((r) => !r.pass)).toEqual([]);
    expect(compareSides(golden, golden, cases, { strictIds: true }).filter((r) => !r.pass)).toEqual([]);
  });

  it('reports a changed value with its path', () => {
    const other = withRecord(golden, 'one.category.noslug', (r) => ({ ...r, body: { ...(r.body as object), meta: { x: 1 } } }));
    const [result] = compareSides(golden, other, cases, { only: /^one\.category\.noslug$/ });
    expect(result).toMatchObject({ pass: false, diffs: ['$.meta.x: unexpected 1'] });
  });

  it('applies the compare modes', () => {
    const ctx = { docs: new Map<string, string>() };
    const rec = (status: number, body: unknown): ReplayRecord => ({ name: 'x', request: { method: 'GET', path: '/', auth: 'none' }, status, headers: { 'content-type': 'application/json' }, body });
    expect(compareCase('status', rec(200, { a: 1 }), rec(200, { a: 2 }), ctx, ctx)).toEqual([]);
    expect(compareCase('error-class', rec(500, null), rec(400, { a: 2 }), ctx, ctx)).toEqual([]);
    expect(compareCase('error-class', rec(500, null), rec(200, null), ctx, ctx)).toEqual(['status: expected an error (golden 500) got 200']);
    const err = (name: string, message: string) => rec(400, { error: { status: 400, name, message } });
    expect(compareCase('error-name', err('ValidationError', 'a'), err('ValidationError', 'b'), ctx, ctx)).toEqual([]);
    expect(compareCase('error-name', err('ValidationError', 'a'), err('BadRequestError', 'a'), ctx, ctx)).toHaveLength(1);
    expect(compareCase('full', rec(200, {}), undefined, ctx, ctx)).toEqual(['missing in replay output']);
  });
});

describe('expected failures', () => {
  const results = [
    { name: 'a', mode: 'full' as const, pass: true, diffs: [] },
    { name: 'filters.eq', mode: 'full' as const, pass: false, diffs: ['x'] },
    { name: 'setup.upload.tiny', mode: 'full' as const, pass: false, diffs: ['y'] },
  ];

  it('guesses an area from the case name', () => {
    expect(['setup.upload.tiny', 'filters.eq', 'locale.fr.list', 'status.draft.list', 'populate.cover', 'misc.v4-format', 'auth.bad-token', 'error.root'].map((name) => guessArea({ name })))
      .toEqual(['media', 'query', 'i18n', 'drafts', 'relations', 'v4', 'auth', 'core']);
  });

  it('flags unlisted failures, listed passes and unknown entries', () => {
    const v = evaluateRatchet(results, { a: 'core', 'filters.eq': 'query', gone: 'core' });
    expect(v.unexpectedFailures.map((r) => r.name)).toEqual(['setup.upload.tiny']);
    expect(v.unexpectedPasses).toEqual(['a']);
    expect(v.unknownEntries).toEqual(['gone']);
    expect(formatSummary(v)).toBe('conformance: 1 passed, 2 failed (1 expected)');
  });

  it('rewrites the list from a run, keeping existing reasons', () => {
    expect(updateExpectedFailures(results, { a: 'core', 'filters.eq': 'relations' }, cases)).toEqual({ 'filters.eq': 'relations', 'setup.upload.tiny': 'media' });
  });
});

describe('replayCorpus against a server playing the golden back', () => {
  let stub: GoldenStub;
  let run: ReplaySide;
  beforeAll(async () => {
    stub = await startGoldenStub(golden);
    run = await replayCorpus(cases, stub.base, TOKENS);
  });
  afterAll(() => stub.close());

  it('sends every request to the recorded path with every placeholder resolved', () => {
    expect(stub.received.map((r) => `${r.method} ${r.path}`)).toEqual(golden.index.map((n) => {
      const g = golden.records.get(n)!;
      return `${g.request.method} ${g.request.path}`;
    }));
    expect([...run.records.values()].filter((r) => r.unresolved || r.captureErrors || r.error)).toEqual([]);
  });

  it('captures what the recording captured and compares equal on every case', () => {
    expect(run.captures).toEqual(golden.captures);
    expect(compareSides(golden, run, cases, { strictIds: true }).filter((r) => !r.pass)).toEqual([]);
  });

  it('uploads the generated files as multipart', () => {
    const i = cases.findIndex((c) => c.name === 'setup.upload.tiny');
    const req = stub.received[i]!;
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(req.body.includes(makePng(16, 16, 1))).toBe(true);
    expect(req.headers.authorization).toBe('Bearer full-token-for-test');
  });
});
