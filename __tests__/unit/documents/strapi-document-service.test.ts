import { ValidationError, type DocumentQueryParams, type DocumentService } from '../../../lib';
import { blogAuthOptions, createBlogAuthApp, type BlogAuthApp } from '../../http/auth/blog-auth-app';

// router.documents(uid) takes Strapi 5's Document Service parameter objects; an object and the equivalent REST
// query string go through the same parsers and give the same documents and the same errors.
type Row = Record<string, unknown>;

let blog: BlogAuthApp;
let articles: DocumentService;
beforeAll(async () => {
  blog = await createBlogAuthApp(blogAuthOptions(), true);
  articles = blog.router.documents('api::article.article');
});
afterAll(() => blog.close());

const published = (p: DocumentQueryParams): DocumentQueryParams => ({ status: 'published', ...p });

const sameResults: [string, DocumentQueryParams, string][] = [
  ['filters', { filters: { title: { $containsi: 'HELLO' } } }, 'filters[title][$containsi]=HELLO'],
  ['filters shorthand and $or', { filters: { $or: [{ views: { $gt: 10 } }, { featured: true }] } }, 'filters[$or][0][views][$gt]=10&filters[$or][1][featured]=true'],
  ['a Date and a number', { filters: { publishDate: { $lt: new Date('2026-03-01T00:00:00.000Z') }, views: { $gte: 0 } } }, 'filters[publishDate][$lt]=2026-03-01T00:00:00.000Z&filters[views][$gte]=0'],
  ['a relation filter with $in', { filters: { categories: { slug: { $in: ['web', 'science'] } } } }, 'filters[categories][slug][$in][0]=web&filters[categories][slug][$in][1]=science'],
  ['populate as an array', { populate: ['author', 'categories'] }, 'populate[0]=author&populate[1]=categories'],
  ['populate as an object with fields', { populate: { author: { fields: ['name'] }, cover: true } }, 'populate[author][fields][0]=name&populate[cover]=true'],
  ['populate *', { populate: '*' }, 'populate=*'],
  ['a dynamic zone fragment', { populate: { blocks: { on: { 'shared.quote': { fields: ['title'] } } } } }, 'populate[blocks][on][shared.quote][fields][0]=title'],
  ['fields and sort', { fields: ['title', 'views'], sort: 'title:desc' }, 'fields[0]=title&fields[1]=views&sort=title:desc'],
  ['sort objects', { sort: [{ views: 'desc' }, { title: 'asc' }] }, 'sort[0][views]=desc&sort[1][title]=asc'],
  ['pagination', { pagination: { page: 2, pageSize: 1 } }, 'pagination[page]=2&pagination[pageSize]=1'],
  ['start and limit (Document Service form)', { start: 1, limit: 1 }, 'pagination[start]=1&pagination[limit]=1'],
  ['locale', { locale: 'fr' }, 'locale=fr'],
  ['every locale', { locale: '*', fields: ['title', 'locale'] }, 'locale=*&fields[0]=title&fields[1]=locale'],
  ['drafts', { status: 'draft', sort: 'title' }, 'status=draft&sort=title'],
];

describe('an object query and the equivalent query string give the same documents', () => {
  it.each(sameResults)('%s', async (_name, params, queryString) => {
    const fromObject = await articles.findMany(published(params));
    const fromString = (await articles.findMany(`status=${params.status ?? 'published'}&${queryString}`)).data;
    expect(fromObject).toEqual(fromString);
    expect(fromObject.length).toBeGreaterThan(0);
  });

  // findFirst takes no pagination.
  it.each(sameResults.filter(([, p]) => !p.pagination && p.start === undefined))('findFirst: %s', async (_name, params, queryString) => {
    expect(await articles.findFirst(published(params))).toEqual(await articles.findFirst(`status=${params.status ?? 'published'}&${queryString}`));
  });
});

const sameErrors: [string, DocumentQueryParams, string][] = [
  ['an unknown filter key', { filters: { nope: { $eq: 1 } } }, 'filters[nope][$eq]=1'],
  ['an unknown operator', { filters: { title: { $bad: 'x' } } }, 'filters[title][$bad]=x'],
  ['an unknown populate key', { populate: ['nope'] }, 'populate[0]=nope'],
  ['an unknown sort key', { sort: 'nope:asc' }, 'sort=nope:asc'],
  ['an unknown field', { fields: ['nope'] }, 'fields[0]=nope'],
  ['page and offset pagination mixed', { pagination: { page: 1, start: 0 } }, 'pagination[page]=1&pagination[start]=0'],
  ['a bad withCount', { pagination: { withCount: 'maybe' as unknown as boolean } }, 'pagination[withCount]=maybe'],
  ['a private attribute in a filter', { filters: { author: { internalNote: { $eq: 'x' } } } }, 'filters[author][internalNote][$eq]=x'],
];

describe('an object query and the equivalent query string give the same error', () => {
  it.each(sameErrors)('%s', async (_name, params, queryString) => {
    const fromString = await articles.findMany(queryString).then(() => null, (e: unknown) => e as Error);
    const fromObject = await articles.findMany(params).then(() => null, (e: unknown) => e as Error);
    expect(fromString).not.toBeNull();
    expect({ name: fromObject?.name, message: fromObject?.message }).toEqual({ name: fromString!.name, message: fromString!.message });
  });

  it('values a query string cannot hold are a ValidationError', async () => {
    await expect(articles.findMany({ filters: { title: { $eq: () => 1 } } } as unknown as DocumentQueryParams)).rejects.toThrow(ValidationError);
    await expect(articles.findMany({ filters: { title: { $eq: Symbol('x') } } } as unknown as DocumentQueryParams)).rejects.toThrow(/Invalid value at filters\[title\]\[\$eq\]/);
    await expect(articles.findMany({ start: 0, pagination: { page: 1 } })).rejects.toThrow(/either pagination or start\/limit/);
  });
});

describe("Strapi's Document Service defaults and answers", () => {
  const titles = (rows: Row[]) => rows.map((r) => r.title).sort();

  it('reads the draft by default, in the default locale, with no page limit', async () => {
    const all = await articles.findMany();
    expect(titles(all)).toEqual(['A draft nobody sees', 'Hello content-router', 'Populate in one round trip']);
    expect(all.every((a) => a.publishedAt === null && a.locale === 'en')).toBe(true);
    expect(titles(await articles.findMany({ status: 'published' }))).toEqual(['Hello content-router', 'Populate in one round trip']);
    // The REST form keeps the REST defaults: published, { data, pagination }.
    const rest = await articles.findMany('');
    expect(rest.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 2 });
  });

  it('findOne({ documentId, ... }), findFirst and count', async () => {
    const [draft] = await articles.findMany({ filters: { slug: { $eq: 'draft' } } });
    const documentId = draft!.documentId as string;
    expect(await articles.findOne({ documentId })).toMatchObject({ documentId, title: 'A draft nobody sees', publishedAt: null });
    expect(await articles.findOne({ documentId, status: 'published' })).toBeNull();
    expect(await articles.findOne({ documentId, fields: ['title'] })).toEqual({ id: draft!.id, documentId, title: 'A draft nobody sees' });
    expect(await articles.count()).toBe(3);
    expect(await articles.count({ status: 'published' })).toBe(2);
    expect(await articles.count({ filters: { views: { $eq: 42 } }, status: 'published' })).toBe(1);
    expect(await articles.count({ locale: 'fr', status: 'published' })).toBe(1);
    await expect(articles.findOne({} as { documentId: string })).rejects.toThrow('findOne() needs a documentId (a string)');
  });

  it('create({ data }) writes a draft, status published publishes; update({ documentId, data })', async () => {
    const draft = await articles.create({ data: { title: 'DS draft', slug: 'ds-draft' }, fields: ['title'] });
    expect(Object.keys(draft).sort()).toEqual(['documentId', 'id', 'title']);
    const documentId = draft.documentId as string;
    expect(await articles.findOne({ documentId, status: 'published' })).toBeNull();
    const live = await articles.create({ data: { title: 'DS live', slug: 'ds-live', author: null }, status: 'published', populate: ['author'] });
    expect(live).toMatchObject({ title: 'DS live', author: null, publishedAt: expect.any(String) });
    const updated = await articles.update({ documentId, data: { title: 'DS draft 2' }, locale: 'fr' });
    expect(updated).toMatchObject({ documentId, title: 'DS draft 2', locale: 'fr', publishedAt: null });
    expect(await articles.update({ documentId: 'nope', data: { title: 'x' } })).toBeNull();
    await expect(articles.create({ data: { title: 'x', views: 'many' } })).rejects.toThrow(ValidationError);
  });

  it('publish, unpublish, discardDraft and delete answer { documentId, entries }', async () => {
    const { documentId } = (await articles.create({ data: { title: 'Lifecycle', slug: 'lifecycle' } })) as { documentId: string };
    await articles.update({ documentId, data: { title: 'Cycle FR' }, locale: 'fr' });
    const pub = await articles.publish({ documentId, locale: '*' });
    expect(pub.documentId).toBe(documentId);
    expect(pub.entries.map((e) => [e.locale, e.title, typeof e.publishedAt]).sort()).toEqual([
      ['en', 'Lifecycle', 'string'],
      ['fr', 'Cycle FR', 'string'],
    ]);
    await articles.update({ documentId, data: { title: 'Changed' } });
    const discarded = await articles.discardDraft({ documentId });
    expect(discarded.entries).toEqual([expect.objectContaining({ title: 'Lifecycle', publishedAt: null, locale: 'en' })]);
    const unpublished = await articles.unpublish({ documentId, locale: 'fr' });
    expect(unpublished.entries).toEqual([expect.objectContaining({ title: 'Cycle FR', locale: 'fr', publishedAt: expect.any(String) })]);
    expect(await articles.findOne({ documentId, locale: 'fr', status: 'published' })).toBeNull();
    const deleted = await articles.delete({ documentId, locale: '*' });
    expect(deleted.entries.map((e) => [e.locale, e.publishedAt === null ? 'draft' : 'published']).sort()).toEqual([
      ['en', 'draft'],
      ['en', 'published'],
      ['fr', 'draft'],
    ]);
    expect(await articles.findOne({ documentId })).toBeNull();
    expect(await articles.delete({ documentId })).toEqual({ documentId, entries: [] });
  });

  it('publish on a type without draft & publish, and unknown uids, are clear errors', async () => {
    const authors = blog.router.documents('api::author.author');
    await expect(authors.publish({ documentId: 'x' })).rejects.toThrow('publish() needs draft & publish: api::author.author does not have it');
    expect(() => blog.router.documents('api::nope.nope')).toThrow(
      'documents("api::nope.nope"): unknown content type; the content types are api::about.about, api::article.article, api::author.author, api::category.category, api::global.global',
    );
    expect(blog.router.documents('api::author.author')).toBe(authors);
  });
});

describe('no page limit and no join budget in the object form, the REST limits in the string form', () => {
  it('an object-form read populates all it asks for; the string form stops at rest.maxJoinedRows', async () => {
    const small = await createBlogAuthApp(blogAuthOptions(), true, { rest: { maxJoinedRows: 1 } });
    try {
      const hello = small.router.documents('api::article.article');
      const [first] = (await hello.findMany({ status: 'published', filters: { slug: 'hello-content-router' }, populate: ['categories'] })) as Row[];
      expect((first!.categories as Row[]).length).toBeGreaterThan(1);
      await expect(hello.findMany('filters[slug]=hello-content-router&populate=categories')).rejects.toThrow(/categories joins more than 1 rows/);
    } finally {
      await small.close();
    }
  });


  it('findMany({}) lists every document; the string form is capped by rest.maxLimit', async () => {
    const small = await createBlogAuthApp(blogAuthOptions(), true, { rest: { defaultLimit: 1, maxLimit: 2 } });
    try {
      const categories = small.router.documents('api::category.category');
      expect(await categories.findMany()).toHaveLength(3);
      expect(await categories.findMany({ limit: 3 })).toHaveLength(3);
      expect((await categories.findMany('')).data).toHaveLength(1);
      expect((await categories.findMany('pagination[limit]=3')).data).toHaveLength(2);
    } finally {
      await small.close();
    }
  });
});
