import request from 'supertest';
import { expectStrapiError } from '../../helpers/http';
import { ARTICLES, CATEGORIES, published, type ArticleSpec, type CategoryKey } from './seed-data';
import { rows, seedQueryFixture, type QueryFixture } from './seed';

type Json = Record<string, unknown>;

let fx: QueryFixture;
beforeAll(async () => {
  fx = await seedQueryFixture();
});
afterAll(() => fx.close());

const spec = (key: string): ArticleSpec => ARTICLES.find((a) => a.key === key)!;
const one = async (key: string, query: string): Promise<Json> => (await fx.get(`/api/articles/${fx.articles[key]}?${query}`)).data as Json;
const keysOf = (value: unknown): string[] => Object.keys(value as Json).sort();
const slugsOf = (value: unknown): string[] => (value as Json[]).map((r) => r.slug as string);
const names = (value: unknown): string[] => (value as Json[]).map((r) => r.name as string);
const SCALARS = ['id', 'documentId', 'title', 'slug', 'description', 'content', 'views', 'rating', 'featured', 'publishDate', 'createdAt', 'updatedAt', 'publishedAt', 'locale'];
const RELATIONAL = ['cover', 'gallery', 'author', 'categories', 'seo', 'blocks'];

describe('populate forms', () => {
  it('nothing by default; * populates every relation, media, component, dynamic zone and localizations', async () => {
    expect(keysOf(await one('a08', ''))).toEqual([...SCALARS].sort());
    const star = await one('a08', 'populate=*');
    expect(keysOf(star)).toEqual([...SCALARS, ...RELATIONAL, 'localizations'].sort());
    expect(names(star.categories)).toEqual(spec('a08').categories.map((c) => CATEGORIES.find((x) => x.key === c)!.name));
  });

  it('true, a name, a comma list, an array, an object: the same result', async () => {
    const base = await one('a12', 'fields=slug&populate[author]=true&populate[categories]=true');
    for (const q of ['populate=author,categories', 'populate[0]=author&populate[1]=categories', 'populate[author]=*&populate[categories]=true', 'populate[0]=author,categories']) {
      expect(await one('a12', `fields=slug&${q}`)).toEqual(base);
    }
    expect(keysOf(base)).toEqual(['author', 'categories', 'documentId', 'id', 'slug']);
    expect(await one('a12', 'fields=slug&populate[author]=false&populate[categories]=true')).toEqual({ ...base, author: undefined });
  });

  it('rule 2: * is one level (component media and nested components absent); rule 5: components only when listed', async () => {
    const star = await one('a12', 'fields=slug&populate=*');
    expect(keysOf(star.seo)).toEqual(['id', 'metaDescription', 'metaTitle']);
    expect((star.blocks as Json[]).map(keysOf)).toEqual([['__component', 'body', 'id', 'title'], ['__component', 'id']]);
    expect(keysOf((star.author as Json))).not.toContain('avatar');
    const onlyAuthor = await one('a12', 'fields=slug&populate=author');
    expect(onlyAuthor.seo).toBeUndefined();
    expect(onlyAuthor.blocks).toBeUndefined();
  });

  it('dotted component paths: seo.socials, seo.shareImage; both merge', async () => {
    const a = spec('a10');
    const socials = await one('a10', 'fields=slug&populate=seo.socials');
    expect(socials.seo).toEqual({ id: expect.any(Number), metaTitle: 'Meta 10', metaDescription: 'About article 10', socials: a.seo!.socials.map((s) => ({ id: expect.any(Number), ...s })) });
    const both = await one('a12', 'fields=slug&populate[0]=seo.socials&populate[1]=seo.shareImage');
    expect(keysOf(both.seo)).toEqual(['id', 'metaDescription', 'metaTitle', 'shareImage', 'socials']);
    expect((both.seo as { shareImage: Json }).shareImage.name).toBe(`${spec('a12').seo!.shareImage!}.png`);
    const fields = await one('a12', 'fields=slug&populate[seo][fields][0]=metaTitle&populate[seo][populate][shareImage][fields][0]=name');
    expect(fields.seo).toEqual({ id: expect.any(Number), metaTitle: 'Meta 12', shareImage: { id: fx.images.yellow, documentId: expect.any(String), name: 'yellow.png' } });
  });

  it('dynamic zone: populate applies to every component; on keeps only the listed components', async () => {
    const all = await one('a12', 'fields=slug&populate[blocks][populate]=*');
    expect(all.blocks).toEqual([
      { id: expect.any(Number), __component: 'shared.quote', title: 'Quote 12', body: 'Wise words' },
      { id: expect.any(Number), __component: 'shared.media', file: expect.objectContaining({ id: fx.images.green, name: 'green.png' }) },
    ]);
    const on = await one('a10', 'fields=slug&populate[blocks][on][shared.slider][populate][files][fields][0]=name&populate[blocks][on][shared.rich-text]=true');
    expect(on.blocks).toEqual([
      { id: expect.any(Number), __component: 'shared.slider', files: [{ id: fx.images.blue, documentId: expect.any(String), name: 'blue.png' }, { id: fx.images.red, documentId: expect.any(String), name: 'red.png' }] },
    ]);
    const quote = await one('a10', 'fields=slug&populate[blocks][on][shared.quote][fields][0]=title');
    expect(quote.blocks).toEqual([{ id: expect.any(Number), __component: 'shared.quote', title: 'Q10' }]);
  });

  it('object form with fields, filters, sort and nested populate on a relation', async () => {
    const a = await one('a08', 'fields=slug&populate[categories][fields][0]=name&populate[categories][sort]=name:desc&populate[categories][filters][name][$ne]=Web&populate[categories][populate][parent][fields][0]=slug');
    expect(a.categories).toEqual([
      { id: expect.any(Number), documentId: fx.categories.lifestyle, name: 'Lifestyle', parent: null },
      { id: expect.any(Number), documentId: fx.categories.frameworks, name: 'Frameworks', parent: { id: expect.any(Number), documentId: fx.categories.frontend, slug: 'frontend' } },
    ]);
  });

  it('count: { count } of the related rows the caller may see, on both sides', async () => {
    expect(await one('a08', 'fields=slug&populate[categories][count]=true&populate[gallery][count]=true')).toMatchObject({ categories: { count: 3 }, gallery: { count: 0 } });
    const author = (await fx.get(`/api/authors/${fx.authors.ann}?fields=name&populate[articles][count]=true`)).data as Json;
    expect(author.articles).toEqual({ count: published((a) => a.author === 'ann').length });
    const tech = (await fx.get(`/api/categories/${fx.categories.tech}?populate[articles][count]=true&populate[articles][filters][featured]=true`)).data as Json;
    expect(tech.articles).toEqual({ count: published((a) => a.featured && a.categories.includes('tech')).length });
  });

  it('localizations: the other locales of the same document, with fields', async () => {
    const a = await one('a03', 'fields=slug&populate[localizations][fields][0]=title&populate[localizations][fields][1]=locale');
    expect(a.localizations).toEqual([{ id: expect.any(Number), documentId: fx.articles.a03, title: spec('a03').fr!.title, locale: 'fr' }]);
    const fr = (await fx.get(`/api/articles/${fx.articles.a03}?locale=fr&fields=title&populate=localizations`)).data as Json;
    expect((fr.localizations as Json[]).map((l) => [l.locale, l.title])).toEqual([['en', spec('a03').title]]);
    expect((await one('a05', 'populate=localizations')).localizations).toEqual([]);
  });

  it('unknown keys, scalars and private relations are 400s; forbidden relations are left out', async () => {
    expectStrapiError(await request(fx.app).get('/api/articles?populate=nope'), 400, 'ValidationError', 'Invalid key nope');
    expectStrapiError(await request(fx.app).get('/api/articles?populate=title'), 400, 'ValidationError', 'Invalid key title');
    expectStrapiError(await request(fx.app).get('/api/articles?populate[categories][pageSize]=2'), 400, 'ValidationError', 'Invalid key pageSize'); // limit pages it (populate-page.test.ts)
    expectStrapiError(await request(fx.app).get('/api/articles?populate[seo][filters][metaTitle]=x'), 400, 'ValidationError', 'Invalid key filters');
    const publicRow = (await request(fx.app).get(`/api/articles/${fx.articles.a05}?populate=*`)).body as { data: Json };
    expect(publicRow.data.author).toBeUndefined();
    expect(publicRow.data.categories).toBeDefined();
  });
});

describe('deep populate and the mappedBy side', () => {
  it('6 levels up the parent chain, in one aggregate', async () => {
    const before = fx.router.engine.stats.aggregate;
    const q = 'fields=name&populate[parent][fields]=name&populate[parent][populate][parent][fields]=name&populate[parent][populate][parent][populate][parent][fields]=name'
      + '&populate[parent][populate][parent][populate][parent][populate][parent][fields]=name'
      + '&populate[parent][populate][parent][populate][parent][populate][parent][populate][parent][fields]=name'
      + '&populate[parent][populate][parent][populate][parent][populate][parent][populate][parent][populate][parent][fields]=name';
    const hooks = (await fx.get(`/api/categories/${fx.categories.hooks}?${q}`)).data as Json;
    expect(fx.router.engine.stats.aggregate - before).toBe(1);
    const chain: (string | null)[] = [];
    for (let c: Json | null = hooks; c; c = c.parent as Json | null) chain.push(c.name as string);
    expect(chain).toEqual(['Hooks', 'React', 'Frameworks', 'Frontend', 'Web', 'Technology']);
  });

  it('6 levels down articles -> categories -> children -> articles -> author -> articles, in one aggregate', async () => {
    const q = 'fields=slug&populate[categories][fields]=slug&populate[categories][populate][children][fields]=slug'
      + '&populate[categories][populate][children][populate][articles][fields]=slug'
      + '&populate[categories][populate][children][populate][articles][populate][author][fields]=name'
      + '&populate[categories][populate][children][populate][articles][populate][author][populate][articles][fields]=slug'
      + '&populate[categories][populate][children][populate][articles][populate][author][populate][articles][populate][categories][fields]=slug';
    // Four levels fan out: the fan-out statistics of these relations (the join budget's, documents/join-statistics)
    // bound it once known; the first such read after a write asks for them.
    await fx.get(`/api/articles?${q}&filters[slug]=a01`);
    const before = fx.router.engine.stats.aggregate;
    const body = await fx.get(`/api/articles?${q}&filters[slug]=a01`);
    expect(fx.router.engine.stats.aggregate - before).toBe(1);
    const [a01] = rows(body);
    const web = (a01!.categories as Json[])[0]!;
    expect(web.slug).toBe('web');
    const frontend = (web.children as Json[])[0]!;
    expect(frontend.slug).toBe('frontend');
    expect(slugsOf(frontend.articles)).toEqual(published((a) => a.categories.includes('frontend')));
    const first = (frontend.articles as Json[])[0]!;
    const author = first.author as Json;
    const authorKey = spec(first.slug as string).author!;
    expect(slugsOf(author.articles)).toEqual(published((a) => a.author === authorKey));
    for (const a of author.articles as Json[]) expect(slugsOf((a.categories as Json[]).map((c) => ({ slug: c.slug })))).toEqual([...spec(a.slug as string).categories]);
  });

  it('the inverse side of each relation kind lists published rows in relation order', async () => {
    const roots = (await fx.get('/api/categories?filters[parent][id][$null]=true&populate[children][fields]=slug&populate[articles][fields]=slug')).data as Json[];
    const childrenOf = (k: CategoryKey): string[] => CATEGORIES.filter((c) => c.parent === k).map((c) => c.key);
    expect(roots.map((r) => [r.slug, slugsOf(r.children)])).toEqual(['tech', 'science', 'lifestyle'].map((k) => [k, childrenOf(k as CategoryKey)]));
    expect(roots.map((r) => slugsOf(r.articles))).toEqual(['tech', 'science', 'lifestyle'].map((k) => published((a) => a.categories.includes(k as CategoryKey))));
    const authors = (await fx.get('/api/authors?populate[articles][fields]=slug&populate[avatar][fields]=name&sort=name')).data as Json[];
    expect(authors.map((a) => [a.name, slugsOf(a.articles), (a.avatar as Json | null)?.name ?? null])).toEqual([
      ['Ann Archer', published((a) => a.author === 'ann'), 'red.png'],
      ['Zoe Zhang', published((a) => a.author === 'zoe'), 'blue.png'],
      ['bob brown', published((a) => a.author === 'bob'), null],
      ['Émile Roy', published((a) => a.author === 'emile'), null],
    ]);
  });

  it('drafts populate drafts: with status=draft the inverse side lists the edited draft', async () => {
    const q = 'fields=title&populate[categories][fields]=slug&populate[categories][populate][articles][fields]=title';
    const titles = async (status: string): Promise<unknown[]> => {
      const a27 = (await fx.get(`/api/articles/${fx.articles.a27}?${q}${status}`)).data as { title: string; categories: { articles: Json[] }[] };
      return [a27.title, a27.categories[0]!.articles.map((a) => a.title)];
    };
    const inTech = ARTICLES.filter((a) => a.categories.includes('tech'));
    expect(await titles('')).toEqual(['Article 27', inTech.filter((a) => a.state !== 'draft').map((a) => a.title)]);
    expect(await titles('&status=draft')).toEqual(['Draft of Article 27', inTech.map((a) => (a.state === 'edited' ? `Draft of ${a.title}` : a.title))]);
  });

  it('a populate=* list is one aggregate', async () => {
    const before = fx.router.engine.stats.aggregate;
    const body = await fx.get('/api/articles?populate=*&pagination[pageSize]=100');
    expect(fx.router.engine.stats.aggregate - before).toBe(1);
    expect(rows(body).map((r) => (r.gallery as Json[]).length)).toEqual(published(() => true).map((k) => spec(k).gallery.length));
  });
});
