import { memoryEngine, type Engine, type Pipeline, type Row } from '../../../lib/engine';
import type { FilterNode, FilterOperator, PopulateMap, PopulateNode, Query, SortItem } from '../../../lib/query/types';
import type { ContentType, Registry, ScalarAttribute } from '../../../lib/schema';
import { readPage } from '../../../lib/pipeline';
import { loadBlogRegistry } from '../../helpers/blog-registry';

export const registry: Registry = loadBlogRegistry();
export const article = registry.contentType('api::article.article');
export const author = registry.contentType('api::author.author');
export const category = registry.contentType('api::category.category');

const T = '2024-01-01T10:00:00.000Z';
const base = (id: number, documentId: string, extra: Row): Row => ({ id, documentId, createdAt: T, updatedAt: T, ...extra });
const published = { _status: 'published', publishedAt: T };
const draft = { _status: 'draft', publishedAt: null };

const files: Row[] = [1, 2, 3].map((id) => base(id, `f${id}`, { ...published, locale: null, name: `${'abc'[id - 1]}.png`, url: `/uploads/${id}.png` }));
const authors: Row[] = [
  base(1, 'ann', { ...published, locale: null, name: 'Ann Archer', avatar: 1 }),
  base(2, 'bob', { ...published, locale: null, name: 'Bob Brown', avatar: null }),
];
const categories: Row[] = [
  base(1, 'tech', { ...published, locale: null, name: 'Tech', slug: 'tech', parent: null }),
  base(2, 'sci', { ...published, locale: null, name: 'Sci', slug: 'sci', parent: 'tech' }),
  base(3, 'web', { ...published, locale: null, name: 'Web', slug: 'web', parent: 'tech' }),
  base(4, 'physics', { ...published, locale: null, name: 'Physics', slug: 'physics', parent: 'sci' }),
];
const alpha: Row = {
  title: 'Alpha', views: 10, rating: 4.5, publishDate: '2024-03-01', description: 'About STRAPI', author: 'ann',
  categories: ['web', 'tech'], cover: 2, gallery: [3, 1],
  content: [{ type: 'paragraph', children: [{ type: 'text', text: 'Heading 3 here' }] }],
  seo: { id: 1, metaTitle: 'Alpha SEO', shareImage: 1, socials: [{ id: 1, network: 'twitter', url: 't' }, { id: 2, network: 'linkedin', url: 'l' }] },
  blocks: [{ id: 1, __component: 'shared.media', file: 3 }, { id: 2, __component: 'shared.quote', title: 'Q', body: 'B' }, { id: 3, __component: 'shared.slider', files: [2, 1] }],
};
const empty: Row = { cover: null, gallery: [], seo: null, blocks: [], content: null, rating: null, publishDate: null, description: null };
const articles: Row[] = [
  base(1, 'a1', { ...draft, locale: 'en', ...alpha, title: 'Alpha draft', author: 'bob', categories: [] }),
  base(2, 'a1', { ...published, locale: 'en', ...alpha }),
  base(3, 'a1', { ...published, locale: 'fr', ...alpha, title: 'Alpha fr', author: 'bob', categories: ['sci'] }),
  base(4, 'a2', { ...published, locale: 'en', ...empty, title: 'beta 50%', views: 20, author: 'bob', categories: ['sci'] }),
  base(5, 'a3', { ...published, locale: 'en', ...empty, title: 'Gamma_x', views: 30, author: null, categories: [], description: 'strapi rocks', publishDate: '2024-05-01', rating: 3 }),
  base(6, 'a4', { ...draft, locale: 'en', ...empty, title: 'Delta', views: 5, author: 'ann', categories: ['web'] }),
];

/** A memory engine holding the small data set above (rows per docs/storage-model.md). */
export async function seededEngine(): Promise<Engine> {
  const engine = memoryEngine({ ephemeral: true });
  await engine.insertMany('files', files);
  await engine.insertMany('authors', authors);
  await engine.insertMany('categories', categories);
  await engine.insertMany('articles', articles);
  return engine;
}

/** Runs one pipeline and checks that it costs exactly one aggregate call. */
export async function run(engine: Engine, ct: ContentType, pipeline: Pipeline): Promise<Row[]> {
  const before = engine.stats.aggregate;
  const rows = await engine.aggregate(ct.collectionName, pipeline);
  expect(engine.stats.aggregate).toBe(before + 1);
  return rows;
}

/** Runs a compileFind pipeline (one aggregate call) and splits its result: the page rows in order and the total. */
export async function runPage(engine: Engine, ct: ContentType, q: Query, pipeline: Pipeline): Promise<{ data: Row[]; total: number | undefined }> {
  const { rows, total } = readPage(await run(engine, ct, pipeline), q.pagination.withCount);
  return { data: rows, total };
}

/** A query with Strapi's defaults (published, page 1 of 25 with count, every field, nothing populated). */
export function query(ct: ContentType, over: Partial<Query> = {}): Query {
  return {
    sort: [],
    pagination: { kind: 'page', page: 1, pageSize: 25, withCount: true },
    fields: null,
    populate: {},
    status: 'published',
    ...(ct.localized ? { locale: 'en' } : {}),
    ...over,
  };
}

/** A scalar filter on `field` of `ct` (or of a component's attributes). */
export function where(attrs: ContentType['attributes'], field: string, operator: FilterOperator, value: unknown): FilterNode {
  return { type: 'scalar', field, attribute: attrs[field] as ScalarAttribute, operator, value };
}

/** A relation (or media) filter: `filters[field][...where]`. */
export function through(ct: ContentType, field: string, inner: FilterNode): FilterNode {
  const attribute = ct.attributes[field];
  if (attribute?.kind !== 'relation' && attribute?.kind !== 'media') throw new Error(`${field} is not a relation`);
  return { type: 'relation', field, attribute, target: attribute.target, where: inner };
}

/** A populate node on `field` of `attrs`. */
export function pop(attrs: ContentType['attributes'], field: string, over: Partial<PopulateNode> = {}): PopulateNode {
  const attribute = field === 'localizations'
    ? { kind: 'localizations' as const, name: 'localizations' as const, target: article.uid }
    : attrs[field];
  if (!attribute || attribute.kind === 'scalar') throw new Error(`${field} cannot be populated`);
  return { attribute, fields: null, sort: [], populate: {}, ...over };
}

export const asc = (...path: string[]): SortItem => ({ path, order: 'asc' });
export const desc = (...path: string[]): SortItem => ({ path, order: 'desc' });
export type { PopulateMap };
