import request from 'supertest';
import { expectStrapiError } from '../../helpers/http';
import { ancestors, ARTICLES, authorOf, CATEGORIES, categoryOf, published, type ArticleSpec, type AuthorKey, type CategoryKey } from './seed-data';
import { READ_ONLY, rows, seedQueryFixture, slugs, type QueryFixture } from './seed';

type Json = Record<string, unknown>;

let fx: QueryFixture;
beforeAll(async () => {
  fx = await seedQueryFixture();
});
afterAll(() => fx.close());

const e = encodeURIComponent;
const list = (path: string, query: string): Promise<Json[]> => fx.get(`/api/${path}?${query}&pagination[pageSize]=100`).then(rows);
const articles = (query: string): Promise<string[]> => fx.get(`/api/articles?${query}&pagination[pageSize]=100`).then(slugs);
const hasCategory = (a: ArticleSpec, p: (c: CategoryKey) => boolean): boolean => a.categories.some(p);

/** Published articles matching, asserting the expectation is a proper non-empty subset. */
function expected(predicate: (a: ArticleSpec) => boolean): string[] {
  const keys = published(predicate);
  expect(keys.length).toBeGreaterThan(0);
  expect(keys.length).toBeLessThan(published(() => true).length);
  return keys;
}

describe('relations, owning side, depth 1 to 3', () => {
  it.each<[string, (a: ArticleSpec) => boolean]>([
    [`filters[author][name]=${e('Ann Archer')}`, (a) => a.author === 'ann'],
    [`filters[author][name][$eqi]=${e('BOB BROWN')}`, (a) => a.author === 'bob'],
    [`filters[author][name][$startsWith]=${e('é')}`, (a) => a.author === 'emile'],
    ['filters[author][bio][$null]=true', (a) => a.author === 'bob'],
    ['filters[author][id][$null]=true', (a) => a.author === null],
    ['filters[author][id][$notNull]=true', (a) => a.author !== null],
    ['filters[categories][slug][$eq]=tech', (a) => a.categories.includes('tech')],
    ['filters[categories][slug][$ne]=tech', (a) => hasCategory(a, (c) => c !== 'tech')],
    ['filters[categories][name][$in][0]=Web&filters[categories][name][$in][1]=Physics', (a) => hasCategory(a, (c) => c === 'web' || c === 'physics')],
    ['filters[categories][id][$null]=true', (a) => a.categories.length === 0],
    // Operators directly on the relation test the target's id, as Strapi's query engine reads a relation where.
    ['filters[author][$null]=true', (a) => a.author === null],
    ['filters[author][$notNull]=true', (a) => a.author !== null],
    ['filters[author][$null]=false', (a) => a.author !== null],
    ['filters[categories][$null]=true', (a) => a.categories.length === 0],
    ['filters[categories][$notNull]=true', (a) => a.categories.length > 0],
    ['filters[$not][categories][$null]=true', (a) => a.categories.length > 0],
    ['filters[$or][0][author][$null]=true&filters[$or][1][categories][$null]=true', (a) => a.author === null || a.categories.length === 0],
    ['filters[cover][$null]=true', (a) => a.cover === null],
    ['filters[gallery][$notNull]=true', (a) => a.gallery.length > 0],
    ['filters[categories][parent][slug][$eq]=web', (a) => hasCategory(a, (c) => categoryOf(c).parent === 'web')],
    ['filters[categories][parent][parent][name]=Technology', (a) => hasCategory(a, (c) => ancestors(c)[1] === 'tech')],
    ['filters[categories][parent][parent][parent][slug]=web', (a) => hasCategory(a, (c) => ancestors(c)[2] === 'web')],
    ['filters[$or][0][author][name]=Zoe%20Zhang&filters[$or][1][categories][slug]=lifestyle', (a) => a.author === 'zoe' || a.categories.includes('lifestyle')],
    ['filters[$not][categories][slug]=tech', (a) => !a.categories.includes('tech')],
    ['filters[author][name]=Ann%20Archer&filters[categories][slug]=physics', (a) => a.author === 'ann' && a.categories.includes('physics')],
  ])('%s', async (query, predicate) => {
    expect(await articles(query)).toEqual(expected(predicate));
  });

  it('by documentId and by id of the target, and the implicit id form', async () => {
    const ann = (await fx.get(`/api/authors/${fx.authors.ann}`)).data as Json;
    const want = expected((a) => a.author === 'ann');
    expect(await articles(`filters[author][documentId][$eq]=${fx.authors.ann}`)).toEqual(want);
    expect(await articles(`filters[author][id][$eq]=${String(ann.id)}`)).toEqual(want);
    expect(await articles(`filters[author]=${String(ann.id)}`)).toEqual(want);
    expect(await articles(`filters[categories][documentId][$in][0]=${fx.categories.hooks}&filters[categories][documentId][$in][1]=${fx.categories.lifestyle}`))
      .toEqual(expected((a) => hasCategory(a, (c) => c === 'hooks' || c === 'lifestyle')));
  });
});

describe('relations, mappedBy side', () => {
  const names = (r: Json[]): string[] => r.map((x) => x.name as string);
  const authorsWhere = (p: (k: AuthorKey) => boolean): string[] =>
    (['ann', 'zoe', 'bob', 'emile'] as AuthorKey[]).filter(p).map((k) => authorOf(k).name);
  const categoriesWhere = (p: (k: CategoryKey) => boolean): string[] => CATEGORIES.filter((c) => p(c.key)).map((c) => c.name);

  it('oneToMany (author.articles) counts published articles only', async () => {
    expect(names(await list('authors', 'filters[articles][title][$eq]=Hello%20World'))).toEqual([authorOf(ARTICLES[0]!.author!).name]);
    const withDrafts = ['a29', 'a30'].map((k) => ARTICLES.find((a) => a.key === k)!.author);
    const byPublished = (k: AuthorKey): boolean => published((a) => a.author === k).length > 0;
    expect(names(await list('authors', 'filters[articles][id][$notNull]=true'))).toEqual(authorsWhere(byPublished));
    expect(names(await list('authors', 'filters[articles][$notNull]=true'))).toEqual(authorsWhere(byPublished));
    expect(names(await list('authors', 'filters[articles][$null]=true'))).toEqual(authorsWhere((k) => !byPublished(k)));
    expect(names(await list('authors', 'filters[articles][slug][$in][0]=a29&filters[articles][slug][$in][1]=a30'))).toEqual([]);
    expect(withDrafts).toContain('ann');
    expect(names(await list('authors', 'filters[articles][views][$gte]=60'))).toEqual(authorsWhere((k) => published((a) => a.author === k && a.views >= 60).length > 0));
  });

  it('manyToMany (category.articles) and oneToMany self relation (category.children), deep', async () => {
    expect(names(await list('categories', 'filters[articles][slug][$eq]=a05'))).toEqual(categoriesWhere((c) => ARTICLES[4]!.categories.includes(c)));
    expect(names(await list('categories', 'filters[articles][id][$null]=true'))).toEqual(categoriesWhere((c) => published((a) => a.categories.includes(c)).length === 0));
    expect(names(await list('categories', 'filters[children][slug][$eq]=hooks'))).toEqual(['React']);
    expect(names(await list('categories', 'filters[children][children][children][slug]=hooks'))).toEqual(['Frontend']);
    expect(names(await list('categories', 'filters[parent][parent][parent][slug]=tech'))).toEqual(['Frameworks']);
    expect(names(await list('categories', 'filters[parent][id][$null]=true'))).toEqual(['Technology', 'Science', 'Lifestyle']);
    expect(names(await list('categories', 'filters[children][id][$null]=true'))).toEqual(categoriesWhere((c) => !CATEGORIES.some((x) => x.parent === c)));
    expect(names(await list('categories', 'filters[children][$null]=true'))).toEqual(categoriesWhere((c) => !CATEGORIES.some((x) => x.parent === c)));
    expect(names(await list('categories', 'filters[parent][$null]=true'))).toEqual(['Technology', 'Science', 'Lifestyle']);
    expect(names(await list('categories', 'filters[articles][$null]=true'))).toEqual(categoriesWhere((c) => published((a) => a.categories.includes(c)).length === 0));
    expect(names(await list('categories', 'filters[articles][$notNull]=true'))).toEqual(categoriesWhere((c) => published((a) => a.categories.includes(c)).length > 0));
    expect(names(await list('categories', 'filters[articles][author][name]=Zoe%20Zhang'))).toEqual(
      categoriesWhere((c) => published((a) => a.author === 'zoe' && a.categories.includes(c)).length > 0),
    );
  });
});

describe('components, nested components, dynamic zone media and media fields', () => {
  it.each<[string, (a: ArticleSpec) => boolean]>([
    ['filters[seo][metaTitle][$startsWith]=Meta%201', (a) => a.seo?.metaTitle.startsWith('Meta 1') === true],
    ['filters[seo][metaDescription][$notNull]=true', (a) => a.seo !== null && a.seo.metaDescription !== null],
    ['filters[seo][socials][network][$eq]=linkedin', (a) => a.seo?.socials.some((s) => s.network === 'linkedin') === true],
    ['filters[seo][socials][network][$in][0]=twitter&filters[seo][socials][network][$in][1]=facebook', (a) => a.seo?.socials.some((s) => s.network !== 'linkedin') === true],
    ['filters[seo][socials][url][$endsWith]=/10', (a) => a.seo?.socials.some((s) => s.url.endsWith('/10')) === true],
    ['filters[seo][shareImage][name][$eq]=green.png', (a) => a.seo?.shareImage === 'green'],
    ['filters[cover][name][$eq]=red.png', (a) => a.cover === 'red'],
    ['filters[cover][id][$null]=true', (a) => a.cover === null],
    ['filters[gallery][name][$eq]=blue.png', (a) => a.gallery.includes('blue')],
    ['filters[gallery][mime][$eq]=image/png', (a) => a.gallery.length > 0],
  ])('%s', async (query, predicate) => {
    expect(await articles(query)).toEqual(expected(predicate));
  });

  it('media by id, and on a type without draft & publish', async () => {
    expect(await articles(`filters[cover][id]=${fx.images.yellow}`)).toEqual(expected((a) => a.cover === 'yellow'));
    expect((await list('authors', 'filters[avatar][name]=blue.png')).map((r) => r.name)).toEqual(['Zoe Zhang']);
  });
});

describe('bad filters are 400s naming the key (Strapi answers 500 to some)', () => {
  const bad = (query: string, message: string | RegExp, key?: string) => async () => {
    const res = await request(fx.app).get(`/api/articles?${query}`).set('authorization', `Bearer ${READ_ONLY}`);
    expectStrapiError(res, 400, 'ValidationError');
    expect((res.body as { error: { message: string } }).error.message).toMatch(message);
    if (key !== undefined) expect((res.body as { error: { details: Json } }).error.details).toMatchObject({ key, source: 'query', param: 'filters' });
  };
  it('$in with an empty value', bad('filters[views][$in]=', /^Invalid value for \$in at views/, '$in'));
  it('$lt with a non-number', bad('filters[views][$lt]=abc', /^Invalid value for \$lt at views/, '$lt'));
  it('a non-array $and', bad('filters[$and]=x', /^Invalid value for \$and/, '$and'));
  it('$between with one value', bad('filters[views][$between]=1', /^Invalid value for \$between at views/, '$between'));
  it('a bad date', bad('filters[publishDate][$eq]=2025-13-45', /^Invalid value for \$eq at publishDate/, '$eq'));
  it('a bad boolean', bad('filters[featured]=maybe', /^Invalid value for \$eq at featured/, '$eq'));
  it('a bad datetime', bad('filters[createdAt][$gt]=yesterday', /^Invalid value for \$gt at createdAt/, '$gt'));
  it('an unknown field', bad('filters[nope]=1', 'Invalid key nope', 'nope'));
  it('an unknown operator', bad('filters[title][$foo]=1', 'Invalid key $foo at title', '$foo'));
  it('Mongo operators are never accepted', async () => {
    for (const q of ['filters[title][$regex]=.*', 'filters[$where]=1', 'filters[title][$expr]=1', 'filters[views][$gt][$ne]=1']) await bad(q, /Invalid/)();
  });
  it('a dynamic zone', bad('filters[blocks][id]=1', 'Invalid key blocks', 'blocks'));
  it('a private attribute through a relation', bad('filters[author][internalNote]=x', 'Invalid key internalNote', 'internalNote'));
  it('not an object', bad('filters=abc', 'The filters parameter must be an object or an array'));
  it('a relation to a type the public cannot find', async () => {
    expectStrapiError(await request(fx.app).get('/api/articles?filters[author][name]=x'), 400, 'ValidationError', 'Invalid key author');
  });
});
