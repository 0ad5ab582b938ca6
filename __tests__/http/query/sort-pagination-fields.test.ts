import request from 'supertest';
import { expectStrapiError } from '../../helpers/http';
import { authorOf, PUBLISHED, type ArticleSpec } from './seed-data';
import { rows, seedQueryFixture, slugs, type QueryFixture } from './seed';

type Json = Record<string, unknown>;

let fx: QueryFixture;
beforeAll(async () => {
  fx = await seedQueryFixture();
});
afterAll(() => fx.close());

const all = '&pagination[pageSize]=100';
const articles = (query: string): Promise<string[]> => fx.get(`/api/articles?${query}${all}`).then(slugs);

/** A stable sort of the published articles (ties keep the default order: row id). */
function sorted(...keys: ((a: ArticleSpec) => string | number | null)[]): (dirs: readonly (1 | -1)[]) => string[] {
  return (dirs) => [...PUBLISHED].sort((x, y) => {
    for (const [i, key] of keys.entries()) {
      const a = key(x);
      const b = key(y);
      if (a === b) continue;
      // NULLs first ascending, last descending (SQLite).
      const c = a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;
      return c * dirs[i]!;
    }
    return 0;
  }).map((a) => a.key);
}

describe('sort', () => {
  const byViews = sorted((a) => a.views);
  const byViewsTitle = sorted((a) => a.views, (a) => a.title);
  it.each<[string, string[]]>([
    ['sort=views', byViews([1])],
    ['sort=views:desc', byViews([-1])],
    ['sort=views:DESC', byViews([-1])],
    ['sort=views:desc,title', byViewsTitle([-1, 1])],
    ['sort[0]=views:asc&sort[1]=title:desc', byViewsTitle([1, -1])],
    ['sort[0]=views&sort[1]=title', byViewsTitle([1, 1])],
    ['sort[views]=desc&sort[title]=asc', byViewsTitle([-1, 1])],
    ['sort[0][views]=desc&sort[1][title]=asc', byViewsTitle([-1, 1])],
    ['sort=title', sorted((a) => a.title)([1])],
    ['sort=rating', sorted((a) => a.rating)([1])],
    ['sort=rating:desc', sorted((a) => a.rating)([-1])],
    ['sort=publishDate:desc,views', sorted((a) => a.publishDate, (a) => a.views)([-1, 1])],
    ['sort=featured:desc,id:desc', sorted((a) => (a.featured ? 1 : 0), (a) => a.index)([-1, -1])],
    ['sort=seo.metaTitle:desc', sorted((a) => a.seo?.metaTitle ?? null)([-1])],
    ['sort[seo][metaTitle]=asc', sorted((a) => a.seo?.metaTitle ?? null)([1])],
    ['sort=author.name', sorted((a) => (a.author === null ? null : authorOf(a.author).name))([1])],
    ['sort[0][author][name]=desc', sorted((a) => (a.author === null ? null : authorOf(a.author).name))([-1])],
    ['sort=author.name:desc,views:desc', sorted((a) => (a.author === null ? null : authorOf(a.author).name), (a) => a.views)([-1, -1])],
  ])('%s', async (query, expected) => {
    expect(await articles(query)).toEqual(expected);
  });

  it('string order is binary: uppercase, then lowercase, then non-ASCII', async () => {
    const names = (b: Json): string[] => rows(b).map((r) => r.name as string);
    expect(names(await fx.get('/api/authors?sort=name'))).toEqual(['Ann Archer', 'Zoe Zhang', 'bob brown', 'Émile Roy']);
    expect(names(await fx.get('/api/authors?sort=name:desc'))).toEqual(['Émile Roy', 'bob brown', 'Zoe Zhang', 'Ann Archer']);
  });

  it('equal keys keep the row id order (the tie-breaker), also across pages', async () => {
    const expected = byViews([1]);
    const pages: string[] = [];
    for (let page = 1; page <= 4; page++) pages.push(...slugs(await fx.get(`/api/articles?sort=views&pagination[page]=${page}&pagination[pageSize]=7`)));
    expect(pages).toEqual(expected);
    expect(expected.filter((k) => PUBLISHED.find((a) => a.key === k)!.views === 0).length).toBeGreaterThan(1);
  });

  it('a field inside a repeatable component: each article by its smallest value ascending, its largest descending', async () => {
    // MongoDB's $sort on an array (https://www.mongodb.com/docs/manual/reference/operator/aggregation/sort/, "Sort
    // with Arrays"): the smallest element ascending, the largest descending; no seo (null) below every network, and an
    // empty socials list below that (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/).
    const key = (a: ArticleSpec, dir: 1 | -1): [number, string] => {
      if (a.seo === null) return [1, ''];
      const networks = a.seo.socials.map((s) => s.network).sort();
      return networks.length === 0 ? [0, ''] : [2, (dir === 1 ? networks[0] : networks[networks.length - 1])!];
    };
    const expected = (dir: 1 | -1): string[] => [...PUBLISHED].sort((x, y) => {
      const [a, b] = [key(x, dir), key(y, dir)];
      return (a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)) * dir;
    }).map((a) => a.key);
    const asc = expected(1);
    expect(new Set(PUBLISHED.map((a) => key(a, 1)[0])).size).toBe(3);
    expect(asc).not.toEqual([...expected(-1)].reverse());
    expect(await articles('sort=seo.socials.network')).toEqual(asc);
    expect(await articles('sort=seo.socials.network:desc')).toEqual(expected(-1));
    expect(await articles('sort[0][seo][socials][network]=desc&sort[1]=views:desc')).toEqual([...PUBLISHED].sort((x, y) => {
      const [a, b] = [key(x, -1), key(y, -1)];
      return -(a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)) || y.views - x.views;
    }).map((a) => a.key));
    const paged = slugs(await fx.get('/api/articles?sort=seo.socials.network:desc&pagination[page]=2&pagination[pageSize]=5'));
    expect(paged).toEqual(expected(-1).slice(5, 10));
  });

  it('sort on a relation of the mappedBy side and on the parent chain', async () => {
    const names = (b: Json): string[] => rows(b).map((r) => r.name as string);
    expect(names(await fx.get('/api/categories?sort[0]=parent.name:desc&sort[1]=name'))).toEqual(
      // parent names Web > Technology > Science > React > Frontend > Frameworks, then the roots (null parent) by name
      ['Frontend', 'Web', 'Physics', 'Hooks', 'Frameworks', 'React', 'Lifestyle', 'Science', 'Technology'],
    );
  });

  it('bad sorts are 400s', async () => {
    const bad = async (query: string, message: string): Promise<void> => {
      expectStrapiError(await request(fx.app).get(`/api/articles?${query}`), 400, 'ValidationError', message);
    };
    await bad('sort=views:up', 'Invalid order. order can only be one of asc|desc|ASC|DESC');
    await bad('sort=nope', 'Invalid key nope');
    await bad('sort=author.name', 'Invalid key author');
    await bad('sort=blocks', 'Invalid key blocks');
    await bad('sort=seo', 'Invalid key seo');
  });
});

describe('pagination', () => {
  const meta = (b: Json): unknown => (b.meta as Json).pagination;
  const total = PUBLISHED.length;

  it('defaults to page 1 of 25 with the count', async () => {
    const b = await fx.get('/api/articles');
    expect(slugs(b)).toEqual(PUBLISHED.slice(0, 25).map((a) => a.key));
    expect(meta(b)).toEqual({ page: 1, pageSize: 25, pageCount: Math.ceil(total / 25), total });
  });

  it('page/pageSize, start/limit, withCount=false', async () => {
    const keys = PUBLISHED.map((a) => a.key);
    let b = await fx.get('/api/articles?pagination[page]=2&pagination[pageSize]=10');
    expect([slugs(b), meta(b)]).toEqual([keys.slice(10, 20), { page: 2, pageSize: 10, pageCount: 3, total }]);
    b = await fx.get('/api/articles?pagination[start]=5&pagination[limit]=3');
    expect([slugs(b), meta(b)]).toEqual([keys.slice(5, 8), { start: 5, limit: 3, total }]);
    b = await fx.get('/api/articles?pagination[page]=3&pagination[pageSize]=10&pagination[withCount]=false');
    expect([slugs(b), meta(b)]).toEqual([keys.slice(20), { page: 3, pageSize: 10 }]);
    b = await fx.get('/api/articles?pagination[start]=26&pagination[limit]=10&pagination[withCount]=f');
    expect([slugs(b), meta(b)]).toEqual([keys.slice(26), { start: 26, limit: 10 }]);
  });

  it('clamps and caps as Strapi does; a page beyond the end is empty with the real totals', async () => {
    const keys = PUBLISHED.map((a) => a.key);
    const cases: [string, string[], unknown][] = [
      ['pagination[page]=9&pagination[pageSize]=10', [], { page: 9, pageSize: 10, pageCount: 3, total }],
      ['pagination[page]=0&pagination[pageSize]=2', keys.slice(0, 2), { page: 1, pageSize: 2, pageCount: 14, total }],
      ['pagination[page]=-1&pagination[pageSize]=2', keys.slice(0, 2), { page: 1, pageSize: 2, pageCount: 14, total }],
      ['pagination[pageSize]=0', keys.slice(0, 1), { page: 1, pageSize: 1, pageCount: total, total }],
      ['pagination[pageSize]=1000', keys, { page: 1, pageSize: 100, pageCount: 1, total }],
      ['pagination[limit]=-1', keys.slice(0, 1), { start: 0, limit: 1, total }],
      ['pagination[start]=-5&pagination[limit]=2', keys.slice(0, 2), { start: 0, limit: 2, total }],
      ['pagination[limit]=500', keys, { start: 0, limit: 100, total }],
      ['pagination[start]=100&pagination[limit]=5', [], { start: 100, limit: 5, total }],
    ];
    for (const [query, expected, pagination] of cases) {
      const b = await fx.get(`/api/articles?${query}`);
      expect({ query, data: slugs(b), pagination: meta(b) }).toEqual({ query, data: expected, pagination });
    }
  });

  it('the error cases', async () => {
    const get = (q: string): request.Test => request(fx.app).get(`/api/articles?${q}`);
    expectStrapiError(await get('pagination[page]=abc'), 400, 'ValidationError', 'convertStartQueryParams expected a positive integer got NaN');
    expectStrapiError(await get('pagination[page]=1&pagination[limit]=2'), 400, 'PaginationError', 'Cannot use both page & offset pagination in the same query');
    expectStrapiError(await get('pagination[withCount]=maybe'), 400, 'ValidationError', 'Invalid withCount parameter. Expected "t","1","true","false","0","f"');
    expectStrapiError(await get('page=2'), 400, 'PaginationError', 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object');
  });

  it('skips past Number.MAX_SAFE_INTEGER are 400s (MongoDB takes a 64-bit integer $skip), never 500s', async () => {
    const get = (q: string): request.Test => request(fx.app).get(`/api/articles?${q}`);
    const tooLarge = /^Invalid pagination: .* more than the largest supported value 9007199254740991$/;
    for (const q of [
      'pagination[start]=1e20',
      'pagination[start]=9007199254740992&pagination[limit]=1',
      'pagination[start]=1e400',
      'pagination[page]=1e20',
      'pagination[page]=9007199254740993&pagination[pageSize]=1',
      'pagination[page]=9007199254740991&pagination[pageSize]=2',
      'pagination[page]=100000000000000&pagination[pageSize]=100',
    ]) {
      const res = await get(q);
      expect({ q, status: res.status }).toEqual({ q, status: 400 });
      expectStrapiError(res, 400, 'ValidationError');
      expect(res.body.error.message).toMatch(q.includes('1e400') ? /^convertStartQueryParams/ : tooLarge);
    }
  });

  it('the largest safe skip and huge limits are served (limits are capped at maxLimit)', async () => {
    const max = Number.MAX_SAFE_INTEGER;
    let b = await fx.get(`/api/articles?pagination[start]=${max}&pagination[limit]=1e20`);
    expect([slugs(b), meta(b)]).toEqual([[], { start: max, limit: 100, total }]);
    b = await fx.get(`/api/articles?pagination[page]=${(max - 1) / 2 + 1}&pagination[pageSize]=2`);
    expect([slugs(b), meta(b)]).toEqual([[], { page: (max - 1) / 2 + 1, pageSize: 2, pageCount: Math.ceil(total / 2), total }]);
    b = await fx.get('/api/articles?pagination[pageSize]=1e400&pagination[page]=1');
    expect(meta(b)).toEqual({ page: 1, pageSize: 100, pageCount: 1, total });
  });
});

describe('fields', () => {
  it('both forms; id and documentId always present; nothing else (not even locale, as in Strapi)', async () => {
    const expected = PUBLISHED.slice(0, 3).map((a) => ({ title: a.title, views: a.views }));
    for (const q of ['fields[0]=title&fields[1]=views', 'fields=title,views', 'fields=title&fields=views']) {
      const data = rows(await fx.get(`/api/articles?${q}&pagination[pageSize]=3`));
      expect(data.map(({ id, documentId, locale, ...rest }) => [typeof id, typeof documentId, locale, rest])).toEqual(expected.map((x) => ['number', 'string', undefined, x]));
    }
  });

  it('fields=* is every scalar; fields combine with populate and apply inside it', async () => {
    const one = (await fx.get(`/api/articles/${fx.articles.a05}?fields=*`)).data as Json;
    expect(Object.keys(one).sort()).toEqual(['content', 'createdAt', 'description', 'documentId', 'featured', 'id', 'locale', 'publishDate', 'publishedAt', 'rating', 'slug', 'title', 'updatedAt', 'views']);
    const b = (await fx.get(`/api/articles/${fx.articles.a08}?fields[0]=slug&populate[author][fields][0]=name&populate[categories][fields]=slug`)).data as Json;
    expect(Object.keys(b).sort()).toEqual(['author', 'categories', 'documentId', 'id', 'slug']);
    expect(b.author).toEqual({ id: expect.any(Number), documentId: fx.authors.emile, name: 'Émile Roy' });
    expect(b.categories).toEqual([
      // relation order (as written), not id order
      { id: expect.any(Number), documentId: fx.categories.frameworks, slug: 'frameworks' },
      { id: expect.any(Number), documentId: fx.categories.web, slug: 'web' },
      { id: expect.any(Number), documentId: fx.categories.lifestyle, slug: 'lifestyle' },
    ]);
  });

  it('unknown, relational and private fields are 400s', async () => {
    expectStrapiError(await request(fx.app).get('/api/articles?fields=nope'), 400, 'ValidationError', 'Invalid key nope');
    expectStrapiError(await request(fx.app).get('/api/articles?fields=author'), 400, 'ValidationError', 'Invalid key author');
    expectStrapiError(await request(fx.app).get('/api/articles?fields[0][x]=1'), 400, 'ValidationError', 'Invalid fields parameter. Expected a string or an array of strings');
    const res = await fx.get('/api/authors?fields=internalNote', 400);
    expect((res.error as Json).message).toBe('Invalid key internalNote');
  });
});
