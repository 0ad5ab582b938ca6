import { LITERAL_TEXT, LOGICAL, NUMBERS_BOOLEANS, STRING_OPERATORS, TEXT_UID_BLOCKS, type Case } from './operator-tables';
import { PUBLISHED, published } from './seed-data';
import { rows, seedQueryFixture, slugs, type QueryFixture } from './seed';

type Json = Record<string, unknown>;

let fx: QueryFixture;
let byKey: Map<string, Json>;

beforeAll(async () => {
  fx = await seedQueryFixture();
  byKey = new Map(rows(await fx.get('/api/articles?pagination[pageSize]=100')).map((r) => [r.slug as string, r]));
});
afterAll(() => fx.close());

const e = encodeURIComponent;
const lower = (s: string | null): string => (s ?? '').toLowerCase();
const list = (query: string): Promise<string[]> => fx.get(`/api/articles?${query}&pagination[pageSize]=100`).then(slugs);

/** Runs a table of filters; each expected set must be a proper, non-empty subset (so the case can fail). */
function table(cases: readonly Case[]): void {
  it.each(cases)('%s', async (query, predicate) => {
    const expected = published(predicate);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(PUBLISHED.length);
    expect(await list(query)).toEqual(expected);
  });
}

describe('string (title): every operator; text operators ignore ASCII case except $eq/$ne', () => {
  table(STRING_OPERATORS);
});

describe('text is literal: %, _ and regex metacharacters never act as wildcards', () => {
  table(LITERAL_TEXT);
  it.each(['.*', '^', '$', '(', '[', '\\', '|', '?', '+', '{1}', '%', '_'])('no title equals or is a pattern match of %j', async (text) => {
    expect(await list(`filters[title][$eqi]=${e(text)}`)).toEqual([]);
    const expected = published((a) => lower(a.title).includes(lower(text)));
    expect(await list(`filters[title][$containsi]=${e(text)}`)).toEqual(expected);
  });
});

describe('text (description), uid (slug), blocks (content)', () => {
  table(TEXT_UID_BLOCKS);
});

describe('integer (views), decimal (rating), boolean (featured): values cast from the query string', () => {
  table(NUMBERS_BOOLEANS);
});

describe('date (publishDate) and datetime (createdAt)', () => {
  table([
    ['filters[publishDate][$eq]=2025-02-14', (a) => a.publishDate === '2025-02-14'],
    ['filters[publishDate][$eq]=2025-02-14T10:30:00.000Z', (a) => a.publishDate === '2025-02-14'],
    ['filters[publishDate][$lt]=2025-03-01', (a) => a.publishDate !== null && a.publishDate < '2025-03-01'],
    ['filters[publishDate][$gte]=2025-06-01', (a) => a.publishDate !== null && a.publishDate >= '2025-06-01'],
    ['filters[publishDate][$between][0]=2025-02-01&filters[publishDate][$between][1]=2025-04-30', (a) => a.publishDate !== null && a.publishDate >= '2025-02-01' && a.publishDate <= '2025-04-30'],
    ['filters[publishDate][$null]=true', (a) => a.publishDate === null],
    ['filters[publishDate][$notNull]=true', (a) => a.publishDate !== null],
    ['filters[publishDate][$in][0]=2025-01-12&filters[publishDate][$in][1]=2025-01-23', (a) => ['2025-01-12', '2025-01-23'].includes(a.publishDate ?? '')],
  ]);

  it('createdAt: every comparison against a stored timestamp, and date-only values', async () => {
    const created = (k: string): string => byKey.get(k)!.createdAt as string;
    const t = created('a10');
    const keys = [...byKey.keys()];
    const where = (p: (c: string) => boolean): string[] => keys.filter((k) => p(created(k)));
    expect(await list(`filters[createdAt][$lte]=${e(t)}`)).toEqual(where((c) => c <= t));
    expect(await list(`filters[createdAt][$gt]=${e(t)}`)).toEqual(where((c) => c > t));
    expect(await list(`filters[createdAt][$eq]=${e(t)}`)).toEqual(where((c) => c === t));
    expect(await list(`filters[createdAt][$between][0]=${e(created('a05'))}&filters[createdAt][$between][1]=${e(t)}`)).toEqual(where((c) => c >= created('a05') && c <= t));
    expect(await list('filters[createdAt][$gt]=2000-01-01')).toEqual(keys);
    expect(await list('filters[createdAt][$lt]=2000-01-01')).toEqual([]);
    expect(await list('filters[createdAt][$null]=true')).toEqual([]);
    expect(where((c) => c <= t).length).toBeGreaterThanOrEqual(10);
  });
});

describe('id, documentId, locale', () => {
  it('id: $eq, implicit, $in, $gt, $notIn (numbers cast from strings)', async () => {
    const id = (k: string): number => byKey.get(k)!.id as number;
    expect(await list(`filters[id][$eq]=${id('a04')}`)).toEqual(['a04']);
    expect(await list(`filters[id]=${id('a04')}`)).toEqual(['a04']);
    expect(await list(`filters[id][$in][0]=${id('a04')}&filters[id][$in][1]=${id('a09')}`)).toEqual(['a04', 'a09']);
    expect(await list(`filters[id][$gt]=${id('a25')}`)).toEqual(published((a) => a.index > 25));
    expect(await list(`filters[id][$notIn][0]=${id('a01')}`)).toEqual(published((a) => a.index !== 1));
  });

  it('documentId: $eq, $in, $ne, $startsWith', async () => {
    const doc = (k: string): string => fx.articles[k]!;
    expect(await list(`filters[documentId][$eq]=${doc('a02')}`)).toEqual(['a02']);
    expect(await list(`filters[documentId][$in][0]=${doc('a02')}&filters[documentId][$in][1]=${doc('a29')}`)).toEqual(['a02']);
    expect(await list(`filters[documentId][$ne]=${doc('a02')}`)).toEqual(published((a) => a.key !== 'a02'));
    expect(await list(`filters[documentId][$startsWith]=${doc('a02')}`)).toEqual(['a02']);
  });

  it('locale: a locale filter replaces the default-locale restriction', async () => {
    const fr = published((a) => a.fr !== null);
    expect(await list('filters[locale][$eq]=fr')).toEqual(fr);
    const body = await fx.get('/api/articles?filters[locale][$in][0]=en&filters[locale][$in][1]=fr&pagination[pageSize]=100&fields[0]=locale&fields[1]=slug');
    expect(rows(body).filter((r) => r.locale === 'fr').map((r) => r.slug)).toEqual(fr);
    expect(rows(body).filter((r) => r.locale === 'en').map((r) => r.slug)).toEqual(published(() => true));
    expect(await list('filters[locale][$ne]=en')).toEqual(fr);
    expect(slugs(await fx.get('/api/articles?locale=fr&filters[title][$startsWith]=FR%20hello&pagination[pageSize]=100'))).toEqual(['a01', 'a02']);
  });
});

describe('$and, $or, $not and a list of filters', () => {
  table(LOGICAL);
});
