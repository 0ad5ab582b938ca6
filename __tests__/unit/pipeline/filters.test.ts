import type { Engine } from '../../../lib/engine';
import { compileFind } from '../../../lib/pipeline';
import type { FilterNode } from '../../../lib/query/types';
import type { ContentType } from '../../../lib/schema';
import { article, author, category, query, registry, runPage, seededEngine, through, where } from './fixtures';

const A = article.attributes;
const seo = registry.component('shared.seo');
const social = registry.component('shared.social');
const and = (...children: FilterNode[]): FilterNode => ({ type: 'and', children });
const or = (...children: FilterNode[]): FilterNode => ({ type: 'or', children });

let engine: Engine;
beforeAll(async () => {
  engine = await seededEngine();
});

async function titles(filters: FilterNode, ct: ContentType = article, field = 'title'): Promise<unknown[]> {
  const q = query(ct, { filters });
  const page = await runPage(engine, ct, q, compileFind(registry, ct, q));
  return page.data.map((r) => r[field]);
}

// Published en articles: Alpha (views 10), beta 50% (20), Gamma_x (30).
const cases: [string, FilterNode, unknown[]][] = [
  ['$eq is case-sensitive', where(A, 'title', '$eq', 'alpha'), []],
  ['$eq', where(A, 'title', '$eq', 'Alpha'), ['Alpha']],
  ['$eq with an array acts like $in', where(A, 'views', '$eq', [10, 20]), ['Alpha', 'beta 50%']],
  ['$eqi', where(A, 'title', '$eqi', 'ALPHA'), ['Alpha']],
  ['$eqi is anchored', where(A, 'title', '$eqi', 'ALPH'), []],
  ['$ne', where(A, 'title', '$ne', 'Alpha'), ['beta 50%', 'Gamma_x']],
  ['$ne keeps nulls', where(A, 'description', '$ne', 'strapi rocks'), ['Alpha', 'beta 50%']],
  ['$nei', where(A, 'title', '$nei', 'alpha'), ['beta 50%', 'Gamma_x']],
  ['$lt', where(A, 'views', '$lt', 20), ['Alpha']],
  ['$lte', where(A, 'views', '$lte', 20), ['Alpha', 'beta 50%']],
  ['$gt', where(A, 'views', '$gt', 20), ['Gamma_x']],
  ['$gte', where(A, 'views', '$gte', 20), ['beta 50%', 'Gamma_x']],
  ['$in', where(A, 'views', '$in', [10, 30]), ['Alpha', 'Gamma_x']],
  ['$notIn', where(A, 'views', '$notIn', [10]), ['beta 50%', 'Gamma_x']],
  ['$contains ignores ASCII case (SQLite LIKE)', where(A, 'description', '$contains', 'strapi'), ['Alpha', 'Gamma_x']],
  ['$containsi', where(A, 'description', '$containsi', 'STRAPI'), ['Alpha', 'Gamma_x']],
  ['$contains escapes %', where(A, 'title', '$contains', '50%'), ['beta 50%']],
  ['$contains escapes regex metacharacters', where(A, 'title', '$contains', '.'), []],
  ['$contains _ literally', where(A, 'title', '$contains', 'a_x'), ['Gamma_x']],
  ['$notContains drops nulls', where(A, 'description', '$notContains', 'rocks'), ['Alpha']],
  ['$notContainsi', where(A, 'title', '$notContainsi', 'ALPHA'), ['beta 50%', 'Gamma_x']],
  ['$null', where(A, 'description', '$null', true), ['beta 50%']],
  ['$null false', where(A, 'description', '$null', false), ['Alpha', 'Gamma_x']],
  ['$notNull', where(A, 'rating', '$notNull', true), ['Alpha', 'Gamma_x']],
  ['$notNull false', where(A, 'rating', '$notNull', false), ['beta 50%']],
  ['$between is inclusive', where(A, 'publishDate', '$between', ['2024-03-01', '2024-05-01']), ['Alpha', 'Gamma_x']],
  ['$startsWith', where(A, 'title', '$startsWith', 'al'), ['Alpha']],
  ['$startsWithi', where(A, 'title', '$startsWithi', 'BE'), ['beta 50%']],
  ['$endsWith', where(A, 'title', '$endsWith', '_X'), ['Gamma_x']],
  ['$endsWithi', where(A, 'title', '$endsWithi', 'PHA'), ['Alpha']],
  ['$and', and(where(A, 'views', '$gt', 10), where(A, 'views', '$lt', 30)), ['beta 50%']],
  ['$or', or(where(A, 'views', '$eq', 10), where(A, 'title', '$eq', 'Gamma_x')), ['Alpha', 'Gamma_x']],
  ['$not', { type: 'not', child: where(A, 'title', '$startsWith', 'Alpha') }, ['beta 50%', 'Gamma_x']],
  ['blocks filter as text', where(A, 'content', '$containsi', 'heading 3'), ['Alpha']],
  ['user text is never an operator', where(A, 'title', '$eq', { $ne: null }), []],
  ['component field', { type: 'component', field: 'seo', attribute: A.seo as never, where: where(seo.attributes, 'metaTitle', '$containsi', 'alpha seo') }, ['Alpha']],
  ['repeatable component', { type: 'component', field: 'seo', attribute: A.seo as never, where: { type: 'component', field: 'socials', attribute: seo.attributes.socials as never, where: where(social.attributes, 'network', '$eq', 'linkedin') } }, ['Alpha']],
  ['repeatable component: both conditions on one item', { type: 'component', field: 'seo', attribute: A.seo as never, where: { type: 'component', field: 'socials', attribute: seo.attributes.socials as never, where: and(where(social.attributes, 'network', '$eq', 'twitter'), where(social.attributes, 'url', '$eq', 'l')) } }, []],
  ['to-one relation (depth 1)', through(article, 'author', where(author.attributes, 'name', '$eq', 'Ann Archer')), ['Alpha']],
  ['to-many relation (depth 1)', through(article, 'categories', where(category.attributes, 'name', '$eqi', 'tech')), ['Alpha']],
  ['relation depth 2', through(article, 'categories', through(category, 'parent', where(category.attributes, 'slug', '$eq', 'tech'))), ['Alpha', 'beta 50%']],
  ['relation depth 3 through a mappedBy side', through(article, 'author', through(author, 'articles', through(article, 'categories', where(category.attributes, 'name', '$eq', 'Web')))), ['Alpha']],
  ['to-many "no related row"', through(article, 'categories', where(category.attributes, 'id', '$null', true)), ['Gamma_x']],
  ['to-one "no related row"', through(article, 'author', where(author.attributes, 'id', '$null', true)), ['Gamma_x']],
  ['relation filter inside $or', or(through(article, 'author', where(author.attributes, 'name', '$eq', 'Bob Brown')), where(A, 'views', '$eq', 30)), ['beta 50%', 'Gamma_x']],
  ['relation filter inside $not', { type: 'not', child: through(article, 'author', where(author.attributes, 'name', '$eq', 'Bob Brown')) }, ['Alpha', 'Gamma_x']],
  ['media field', through(article, 'cover', where(registry.contentType('plugin::upload.file').attributes, 'name', '$eq', 'b.png')), ['Alpha']],
];

describe('compileFind filters (run on the memory engine)', () => {
  it.each(cases)('%s', async (_name, filters, expected) => {
    expect(await titles(filters)).toEqual(expected);
  });

  it('filters the mappedBy side by the owner rows (published only, every locale)', async () => {
    // 'Alpha' (en) is in web and tech, 'Alpha fr' in sci; the draft 'Alpha draft' counts for nothing.
    expect(await titles(through(category, 'articles', where(A, 'title', '$startsWith', 'Alpha')), category, 'name')).toEqual(['Tech', 'Sci', 'Web']);
    expect(await titles(through(category, 'articles', where(A, 'title', '$eq', 'Delta')), category, 'name')).toEqual([]);
  });

  it('a locale filter replaces the locale of the request', async () => {
    expect(await titles(where(A, 'locale', '$eq', 'fr'))).toEqual(['Alpha fr']);
  });
});
