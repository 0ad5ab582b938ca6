import { PUBLISHED, published, type ArticleSpec } from './seed-data';
import { rows, seedQueryFixture, slugs, type QueryFixture } from './seed';

type Json = Record<string, unknown>;
type Case = readonly [query: string, expected: (a: ArticleSpec) => boolean];

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
  table([
    [`filters[title][$eq]=${e('Hello World')}`, (a) => a.title === 'Hello World'],
    [`filters[title]=${e('Hello World')}`, (a) => a.title === 'Hello World'],
    [`filters[title][$eqi]=${e('HELLO world')}`, (a) => lower(a.title) === 'hello world'],
    [`filters[title][$ne]=${e('Hello World')}`, (a) => a.title !== 'Hello World'],
    [`filters[title][$nei]=${e('hello WORLD')}`, (a) => lower(a.title) !== 'hello world'],
    ['filters[title][$contains]=WORLD', (a) => lower(a.title).includes('world')],
    ['filters[title][$containsi]=wOrLd', (a) => lower(a.title).includes('world')],
    ['filters[title][$notContains]=world', (a) => !lower(a.title).includes('world')],
    ['filters[title][$notContainsi]=WORLD', (a) => !lower(a.title).includes('world')],
    ['filters[title][$startsWith]=hello', (a) => lower(a.title).startsWith('hello')],
    ['filters[title][$startsWithi]=HELLO', (a) => lower(a.title).startsWith('hello')],
    ['filters[title][$endsWith]=GUIDE', (a) => lower(a.title).endsWith('guide')],
    ['filters[title][$endsWithi]=guide', (a) => lower(a.title).endsWith('guide')],
    [`filters[title][$in][0]=${e('Hello World')}&filters[title][$in][1]=${e('Zebra crossing')}`, (a) => ['Hello World', 'Zebra crossing'].includes(a.title)],
    [`filters[title][$in]=${e('Zebra crossing')}`, (a) => a.title === 'Zebra crossing'],
    [`filters[title][$eq][0]=${e('Hello World')}&filters[title][$eq][1]=${e('hello world')}`, (a) => lower(a.title) === 'hello world'],
    [`filters[title][$notIn][0]=${e('Hello World')}&filters[title][$notIn][1]=${e('Zebra crossing')}`, (a) => !['Hello World', 'Zebra crossing'].includes(a.title)],
    ['filters[title][$lt]=B', (a) => a.title < 'B'],
    ['filters[title][$lte]=Hello%20World', (a) => a.title <= 'Hello World'],
    ['filters[title][$gt]=Z', (a) => a.title > 'Z'],
    ['filters[title][$gte]=Zebra%20crossing', (a) => a.title >= 'Zebra crossing'],
    ['filters[title][$between][0]=A&filters[title][$between][1]=H', (a) => a.title >= 'A' && a.title <= 'H'],
    ['filters[title][$notNull]=true&filters[views][$gt]=30', (a) => a.views > 30],
  ]);
});

describe('text is literal: %, _ and regex metacharacters never act as wildcards', () => {
  table([
    ['filters[title][$contains]=%25', (a) => a.title.includes('%')],
    ['filters[title][$contains]=_', (a) => a.title.includes('_')],
    ['filters[title][$startsWith]=100%25', (a) => a.title.startsWith('100%')],
    ['filters[title][$containsi]=A.B', (a) => lower(a.title).includes('a.b')],
    [`filters[title][$contains]=${e('*c (x)[y]')}`, (a) => a.title.includes('*c (x)[y]')],
    [`filters[title][$endsWith]=${e('(x)[y]')}`, (a) => a.title.endsWith('(x)[y]')],
    ['filters[description][$contains]=50%25%20off_peak', (a) => (a.description ?? '').includes('50% off_peak')],
    ['filters[description][$contains]=%25', (a) => (a.description ?? '').includes('%')],
  ]);
  it.each(['.*', '^', '$', '(', '[', '\\', '|', '?', '+', '{1}', '%', '_'])('no title equals or is a pattern match of %j', async (text) => {
    expect(await list(`filters[title][$eqi]=${e(text)}`)).toEqual([]);
    const expected = published((a) => lower(a.title).includes(lower(text)));
    expect(await list(`filters[title][$containsi]=${e(text)}`)).toEqual(expected);
  });
});

describe('text (description), uid (slug), blocks (content)', () => {
  table([
    ['filters[description][$null]=true', (a) => a.description === null],
    ['filters[description][$null]=false', (a) => a.description !== null],
    ['filters[description][$notNull]=true', (a) => a.description !== null],
    ['filters[description][$notNull]=false', (a) => a.description === null],
    ['filters[description][$containsi]=ARTICLE%201', (a) => lower(a.description).includes('article 1')],
    ['filters[description][$notContainsi]=article', (a) => a.description !== null && !lower(a.description).includes('article')],
    ['filters[slug][$startsWith]=a1', (a) => a.key.startsWith('a1')],
    ['filters[slug][$in][0]=a03&filters[slug][$in][1]=a28&filters[slug][$in][2]=a29', (a) => ['a03', 'a28'].includes(a.key)],
    ['filters[content][$containsi]=heading%203', (a) => lower(a.contentText).includes('heading 3')],
    ['filters[content][$contains]=HERE', (a) => a.contentText !== null],
    ['filters[content][$null]=true', (a) => a.contentText === null],
    ['filters[content][$notContainsi]=heading%203', (a) => a.contentText !== null && !lower(a.contentText).includes('heading 3')],
  ]);
});

describe('integer (views), decimal (rating), boolean (featured): values cast from the query string', () => {
  table([
    ['filters[views][$eq]=30', (a) => a.views === 30],
    ['filters[views]=30', (a) => a.views === 30],
    ['filters[views][$ne]=30', (a) => a.views !== 30],
    ['filters[views][$lt]=20', (a) => a.views < 20],
    ['filters[views][$lte]=20', (a) => a.views <= 20],
    ['filters[views][$gt]=4.5e1', (a) => a.views > 45],
    ['filters[views][$gte]=50', (a) => a.views >= 50],
    ['filters[views][$in][0]=10&filters[views][$in][1]=60', (a) => [10, 60].includes(a.views)],
    ['filters[views][$notIn][0]=0&filters[views][$notIn][1]=10', (a) => ![0, 10].includes(a.views)],
    ['filters[views][$between][0]=10&filters[views][$between][1]=30', (a) => a.views >= 10 && a.views <= 30],
    ['filters[views][$not][$gt]=20', (a) => !(a.views > 20)],
    ['filters[rating][$eq]=4.25', (a) => a.rating === 4.25],
    ['filters[rating][$ne]=4.25', (a) => a.rating !== 4.25],
    ['filters[rating][$gt]=5', (a) => a.rating !== null && a.rating > 5],
    ['filters[rating][$lte]=2.25', (a) => a.rating !== null && a.rating <= 2.25],
    ['filters[rating][$between][0]=1.25&filters[rating][$between][1]=3.25', (a) => a.rating !== null && a.rating >= 1.25 && a.rating <= 3.25],
    ['filters[rating][$null]=true', (a) => a.rating === null],
    ['filters[rating][$notNull]=true', (a) => a.rating !== null],
    ['filters[rating][$in][0]=1.25&filters[rating][$in][1]=8.25', (a) => a.rating === 1.25 || a.rating === 8.25],
    ['filters[featured][$eq]=true', (a) => a.featured],
    ['filters[featured]=true', (a) => a.featured],
    ['filters[featured][$eq]=1', (a) => a.featured],
    ['filters[featured][$eq]=t', (a) => a.featured],
    ['filters[featured][$eq]=false', (a) => !a.featured],
    ['filters[featured][$eq]=0', (a) => !a.featured],
    ['filters[featured][$ne]=true', (a) => !a.featured],
    ['filters[featured][$in][0]=true', (a) => a.featured],
  ]);
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
  table([
    ['filters[$or][0][views][$eq]=0&filters[$or][1][featured]=true', (a) => a.views === 0 || a.featured],
    ['filters[$and][0][views][$gte]=20&filters[$and][1][featured]=false', (a) => a.views >= 20 && !a.featured],
    ['filters[$not][views][$gt]=20', (a) => !(a.views > 20)],
    ['filters[$not][$or][0][views][$eq]=0&filters[$not][$or][1][featured]=true', (a) => !(a.views === 0 || a.featured)],
    ['filters[$or][0][$and][0][views][$eq]=10&filters[$or][0][$and][1][featured]=false&filters[$or][1][title][$eq]=Hello%20World', (a) => (a.views === 10 && !a.featured) || a.title === 'Hello World'],
    ['filters[0][views]=10&filters[1][featured]=false', (a) => a.views === 10 && !a.featured],
    ['filters[views][$or][0][$eq]=10&filters[views][$or][1][$eq]=60', (a) => a.views === 10 || a.views === 60],
    ['filters[views][$gte]=10&filters[views][$lte]=30&filters[featured]=false', (a) => a.views >= 10 && a.views <= 30 && !a.featured],
  ]);
});
