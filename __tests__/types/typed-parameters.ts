/**
 * Type-level tests of the Document Service's parameters with the generated types in use (checked by `npm run
 * typecheck` over this folder's project, and by generated-types.test.ts): the first functions must compile, every
 * line under a `@ts-expect-error` must be an error (a loosened type makes the directive unused: tsc fails).
 * typedReads and thingReads also run (generated-types.test.ts): the parsers accept what the types accept.
 */
import type { ContentRouter, DocumentFilters, DocumentPopulate } from '../../lib';
import type { Article, ArticleInput } from './generated/blog';
import type { Thing, ThingInput } from './generated/every-type';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(): T => true as T;

/** Strapi 5's parameter objects for writes, every kind of attribute: they compile (made-up ids: never run). */
export async function typedWrites(router: ContentRouter): Promise<void> {
  const articles = router.documents('api::article.article');
  const data: ArticleInput = {
    title: 'T', views: 3, featured: null, publishDate: new Date(), content: [{ type: 'paragraph', children: [] }],
    author: 'author-id', categories: ['a', 7, { documentId: 'b', locale: 'en', status: 'published' }],
    cover: 1, gallery: [{ id: 2 }, '3'],
    seo: { metaTitle: 'm', shareImage: null, socials: [{ id: 4, network: 'twitter', url: 'u' }] },
    blocks: [{ __component: 'shared.quote', title: 'q' }, { __component: 'shared.media', file: 5 }],
  };
  const created = await articles.create({ data, status: 'published', locale: 'en', fields: ['title'], populate: ['author'] });
  assertType<Equal<typeof created, Article>>();
  await articles.update({
    documentId: created.documentId,
    data: { categories: { connect: [{ documentId: 'c', position: { before: 'a' } }], disconnect: ['b'], options: { strict: false } } },
    locale: 'fr',
  });
  // A private attribute is writable (never answered, never filtered on).
  await router.documents('api::author.author').create({ data: { name: 'A', internalNote: 'n' } });
  await articles.delete({ documentId: 'x', locale: '*' });
  await articles.publish({ documentId: 'x' });
  await articles.unpublish({ documentId: 'x', locale: 'fr' });
  await articles.discardDraft({ documentId: 'x', populate: ['author'] });
  const zone: ThingInput['zone'] = [{ __component: 'parts.note', body: 'n', day: '2024-01-02' }];
  await router.documents('api::thing.thing').create({ data: { name: 'n', size: 'm', big: 9007199254740991, meta: { a: [1, null] }, zone, part: { label: 'p', person: null } } });
}

/** Strapi 5's parameter objects for reads, every operator and populate form: they compile, and the blog app runs them. */
export async function typedReads(router: ContentRouter): Promise<number[]> {
  const articles = router.documents('api::article.article');
  const list = await articles.findMany({
    filters: {
      title: { $containsi: 'a' },
      views: { $gte: 0, $lte: '1000000', $between: [0, 1e6] },
      author: { name: { $notNull: true }, articles: { slug: { $notIn: ['nope'] } } },
      categories: { $notNull: true },
      $or: [{ featured: true }, { rating: { $in: [1, 2, 3, 4, 5] } }, { featured: 'false' }, { seo: { metaTitle: { $null: true } } }],
      publishedAt: { $lt: new Date('2999-01-01') },
      $not: { slug: null, documentId: ['a', 'b'] },
    },
    fields: ['title', 'slug', 'documentId'],
    populate: {
      author: { fields: ['name'], populate: ['avatar'] },
      categories: { filters: { name: { $ne: 'x' } }, sort: ['name:asc'] },
      blocks: { on: { 'shared.quote': true, 'shared.media': { populate: ['file'] } } },
      seo: { populate: '*' },
      localizations: { fields: ['locale'] },
    },
    sort: ['title:desc', 'author.name', { author: { name: 'asc' } }, { views: 'DESC' }],
    status: 'published',
    locale: '*',
    start: 0,
    limit: 10,
  });
  assertType<Equal<typeof list, Article[]>>();
  const all = await articles.findMany({ populate: '*', fields: '*', sort: 'publishDate' });
  const deep = await articles.findMany({ populate: ['author', 'seo.socials', { blocks: { populate: '*' } }, { categories: { count: true } }, { gallery: { start: 0, limit: 2, withCount: true } }] });
  const first = await articles.findFirst({ filters: { slug: { $notNull: true } } });
  const one = await articles.findOne({ documentId: first?.documentId ?? 'none', populate: 'cover' });
  const published = await articles.count({ filters: { publishedAt: { $notNull: true } }, status: 'published' });
  return [list.length, all.length, deep.length, one ? 1 : 0, published];
}

/** The every-type model: enumerations, components and dynamic zones in filters and populate (run by the test). */
export async function thingReads(router: ContentRouter): Promise<Thing[]> {
  const filters: DocumentFilters<Thing> = { size: { $in: ['s', 'm'] }, flag: true, part: { label: { $startsWith: 'p' } }, owner: { name: 'Ada' } };
  const populate: DocumentPopulate<Thing> = { zone: { populate: { picture: true } }, parts: { fields: ['label'] }, owner: true };
  return router.documents('api::thing.thing').findMany({ filters, populate, status: 'published' });
}

/** The REST forms: a raw query string is a string (the parsers check it at run time); `data` is the input type. */
export async function restForms(router: ContentRouter): Promise<void> {
  const articles = router.documents('api::article.article');
  const page = await articles.findMany('populate=*&filters[titel][$eq]=checked-at-run-time');
  assertType<Equal<typeof page.data, Article[]>>();
  await articles.findOne('x', 'fields[0]=title');
  await articles.findFirst('sort=title');
  await articles.create({ title: 'T', seo: { metaTitle: 'm' } }, { status: 'draft', locale: 'en', query: 'populate=author' });
  await articles.update('x', { title: 'U' }, { status: 'published' });
  await articles.delete('x', { locale: '*' });
  await router.documents('api::global.global').upsertSingle({ siteName: 'S' }, { locale: 'en' });
}

/** The mistakes the types catch: each must be a compile error. */
export async function mistakes(router: ContentRouter): Promise<void> {
  const articles = router.documents('api::article.article');
  // @ts-expect-error: an unknown attribute in create's data
  await articles.create({ data: { titel: 'T' } });
  // @ts-expect-error: an unknown attribute in update's data
  await articles.update({ documentId: 'x', data: { titel: 'T' } });
  // @ts-expect-error: an unknown attribute in the REST form's data
  await articles.create({ titel: 'T' }, { status: 'draft' });
  // @ts-expect-error: an unknown attribute in a component's data
  await articles.create({ data: { seo: { metaTitel: 'm' } } });
  // @ts-expect-error: a value of the wrong type in data
  await articles.create({ data: { views: 'many' } });
  // @ts-expect-error: a wrong enum value in a component's data
  await articles.create({ data: { seo: { socials: [{ network: 'myspace' }] } } });
  // @ts-expect-error: a wrong enum value in data
  await router.documents('api::thing.thing').update({ documentId: 'x', data: { size: 'xl' } });
  // @ts-expect-error: a wrong enum value in a filter
  await router.documents('api::thing.thing').findMany({ filters: { size: { $eq: 'xl' } } });
  // @ts-expect-error: a dynamic zone item of a component the zone does not allow
  await articles.create({ data: { blocks: [{ __component: 'shared.social', url: 'u' }] } });
  // @ts-expect-error: a typo in a filters key
  await articles.findMany({ filters: { titel: { $eq: 'T' } } });
  // @ts-expect-error: a typo in a filters key through a relation
  await articles.findMany({ filters: { author: { nmae: 'A' } } });
  // @ts-expect-error: an unknown filter operator
  await articles.findMany({ filters: { title: { $like: 'T' } } });
  // @ts-expect-error: a private attribute cannot be filtered on
  await router.documents('api::author.author').findMany({ filters: { internalNote: 'n' } });
  // @ts-expect-error: a typo in count's filters
  await articles.count({ filters: { titel: 'T' } });
  // @ts-expect-error: a typo in a populate key
  await articles.findMany({ populate: { auhtor: true } });
  // @ts-expect-error: a typo in a populate entry
  await articles.findMany({ populate: ['author', 'categoris'] });
  // @ts-expect-error: a scalar is not populated
  await articles.findOne({ documentId: 'x', populate: ['title'] });
  // @ts-expect-error: a typo in a nested populate's fields
  await articles.findMany({ populate: { author: { fields: ['nmae'] } } });
  // @ts-expect-error: a typo in a fields entry
  await articles.findMany({ fields: ['title', 'slgu'] });
  // @ts-expect-error: a relation is not a field
  await articles.findFirst({ fields: ['author'] });
  // @ts-expect-error: a typo in a sort key
  await articles.findMany({ sort: { titel: 'asc' } });
  // @ts-expect-error: a wrong sort direction
  await articles.findMany({ sort: 'title:up' });
  // @ts-expect-error: a wrong status value
  await articles.findMany({ status: 'publish' });
  // @ts-expect-error: a wrong status value in a create
  await articles.create({ data: { title: 'T' }, status: 'live' });
  // @ts-expect-error: a locale is a string
  await articles.findMany({ locale: 1 });
  // @ts-expect-error: a locale is a string, in an update
  await articles.update({ documentId: 'x', data: {}, locale: ['en'] });
}
