import type { FilterNode } from '../../../lib/query';
import { invalidKey, parse, parseError } from './parse-helper';

/** The filter tree without the attribute objects, for readable expectations. */
function shape(node: FilterNode | undefined): unknown {
  if (!node) return undefined;
  switch (node.type) {
    case 'and':
    case 'or':
      return { [node.type]: node.children.map(shape) };
    case 'not':
      return { not: shape(node.child) };
    case 'scalar':
      return [node.field, node.operator, node.value];
    case 'relation':
      return { relation: node.field, target: node.target, where: shape(node.where) };
    case 'component':
      return { component: node.field, where: shape(node.where) };
  }
}

const filters = (raw: string, opts = {}): unknown => shape(parse(raw, opts).filters);

describe('parseFilters: accepted forms', () => {
  it.each([
    ['filters[title]=x', ['title', '$eq', 'x']],
    ['filters[title][$eq]=The answer', ['title', '$eq', 'The answer']],
    ['filters[views][$gt]=450', ['views', '$gt', 450]],
    ['filters[rating][$gte]=4.5', ['rating', '$gte', 4.5]],
    ['filters[featured][$eq]=true', ['featured', '$eq', true]],
    ['filters[featured]=0', ['featured', '$eq', false]],
    ['filters[publishDate][$gt]=2024-12-01', ['publishDate', '$gt', '2024-12-01']],
    ['filters[createdAt][$gt]=2024-01-01T10:00:00%2B02:00', ['createdAt', '$gt', '2024-01-01T08:00:00.000Z']],
    ['filters[createdAt][$gt]=2024-01-01T10:00', ['createdAt', '$gt', '2024-01-01T10:00:00.000Z']],
    ['filters[updatedAt][$lte]=2024-01-01', ['updatedAt', '$lte', '2024-01-01T00:00:00.000Z']],
    ['filters[publishDate][$between][0]=2024-03-01&filters[publishDate][$between][1]=2024-04-30', ['publishDate', '$between', ['2024-03-01', '2024-04-30']]],
    ['filters[views][$in]=5', ['views', '$in', [5]]],
    ['filters[views][$notIn][0]=0&filters[views][$notIn][1]=37', ['views', '$notIn', [0, 37]]],
    ['filters[views][$eq][0]=37&filters[views][$eq][1]=74', ['views', '$in', [37, 74]]],
    ['filters[views][0]=37&filters[views][1]=74', ['views', '$in', [37, 74]]],
    ['filters[title][$ne][0]=a', ['title', '$notIn', ['a']]],
    ['filters[publishDate][$notNull]=false', ['publishDate', '$notNull', false]],
    ['filters[description][$null]=true', ['description', '$null', true]],
    ['filters[title][$eq]', ['title', '$null', true]],
    ['filters[views][$contains]=3', ['views', '$contains', '3']],
    ['filters[content][$containsi]=heading 3', ['content', '$containsi', 'heading 3']],
    ['filters[title][$startsWithi]=art', ['title', '$startsWithi', 'art']],
    ['filters[id][$eq]=6', ['id', '$eq', 6]],
    ['filters[documentId][$in][0]=a&filters[documentId][$in][1]=b', ['documentId', '$in', ['a', 'b']]],
    ['filters[publishedAt][$null]=true', ['publishedAt', '$null', true]],
  ])('%s', (raw, expected) => {
    expect(filters(raw)).toEqual(expected);
  });

  it('ands several conditions and keeps $or/$and/$not', () => {
    expect(filters('filters[$or][0][$and][0][featured][$eq]=true&filters[$or][0][$and][1][views][$gt]=200&filters[$or][1][title][$eqi]=x&filters[$not][title][$startsWith]=A')).toEqual({
      and: [
        { or: [{ and: [['featured', '$eq', true], ['views', '$gt', 200]] }, ['title', '$eqi', 'x']] },
        { not: ['title', '$startsWith', 'A'] },
      ],
    });
  });

  it('reads $or given as an index-keyed object (past qs arrayLimit)', () => {
    expect(filters('filters[$or][0][views]=1&filters[$or][150][views]=2')).toEqual({ or: [['views', '$eq', 1], ['views', '$eq', 2]] });
  });

  it('accepts $not and operators side by side on one attribute', () => {
    expect(filters('filters[views][$gt]=1&filters[views][$not][$eq]=5')).toEqual({ and: [['views', '$gt', 1], { not: ['views', '$eq', 5] }] });
  });

  it.each([
    ['filters[author][name][$eq]=Ann', { relation: 'author', target: 'api::author.author', where: ['name', '$eq', 'Ann'] }],
    ['filters[author]=3', { relation: 'author', target: 'api::author.author', where: ['id', '$eq', 3] }],
    ['filters[categories][id][$null]=true', { relation: 'categories', target: 'api::category.category', where: ['id', '$null', true] }],
    ['filters[categories][$null]=true', { relation: 'categories', target: 'api::category.category', where: ['id', '$null', true] }],
    ['filters[author][$notNull]=true', { relation: 'author', target: 'api::author.author', where: ['id', '$notNull', true] }],
    ['filters[cover][$null]=false', { relation: 'cover', target: 'plugin::upload.file', where: ['id', '$null', false] }],
    ['filters[categories][parent][slug][$eq]=tech', { relation: 'categories', target: 'api::category.category', where: { relation: 'parent', target: 'api::category.category', where: ['slug', '$eq', 'tech'] } }],
    ['filters[cover][name][$eq]=large.png', { relation: 'cover', target: 'plugin::upload.file', where: ['name', '$eq', 'large.png'] }],
    ['filters[seo][metaTitle][$containsi]=answer', { component: 'seo', where: ['metaTitle', '$containsi', 'answer'] }],
    ['filters[seo][socials][network][$eq]=linkedin', { component: 'seo', where: { component: 'socials', where: ['network', '$eq', 'linkedin'] } }],
  ])('deep: %s', (raw, expected) => {
    expect(filters(raw)).toEqual(expected);
  });

  it('lets the public role filter on media (Strapi does not check upload permission)', () => {
    expect(filters('filters[cover][name]=a', { public: true })).toMatchObject({ relation: 'cover' });
  });
});

describe('parseFilters: refused', () => {
  it.each([
    ['filters=abc', { name: 'ValidationError', message: 'The filters parameter must be an object or an array', details: {} }],
    ['filters[nope][$eq]=1', invalidKey('nope', null, 'filters')],
    ['filters[title][$foo]=x', invalidKey('$foo', 'title', 'filters')],
    ['filters[$where]=1', invalidKey('$where', null, 'filters')],
    ['filters[$expr][x]=1', invalidKey('$expr', null, 'filters')],
    ['filters[title][$regex]=.*', invalidKey('$regex', 'title', 'filters')],
    ['filters[title][$where]=sleep(1000)', invalidKey('$where', 'title', 'filters')],
    ['filters[createdBy][id][$eq]=1', invalidKey('createdBy', 'createdBy', 'filters')],
    ['filters[blocks][$null]=true', invalidKey('blocks', 'blocks', 'filters')],
    ['filters[categories][nope]=1', invalidKey('nope', 'categories', 'filters')],
    ['filters[author][$null]=true&filters[author][name]=x', invalidKey('$null', 'author', 'filters')],
    ['filters[$eq]=1', invalidKey('$eq', null, 'filters')],
  ])('%s', (raw, expected) => {
    expect(parseError(raw)).toEqual(expected);
  });

  it.each([
    ['filters[author][internalNote][$eq]=x', {}, invalidKey('internalNote', 'author.internalNote', 'filters')],
    ['filters[author][internalNote][$eq]=x', { public: true }, invalidKey('internalNote', 'author.internalNote', 'filters')],
    ['filters[author][name][$eq]=Ann', { public: true }, invalidKey('author', 'author', 'filters')],
    ['filters[$or][0][author][name]=A', { public: true }, invalidKey('author', 'author', 'filters')],
    ['filters[categories][articles][author][name]=A', { public: true }, invalidKey('author', 'categories.articles.author', 'filters')],
    ['filters[email]=x&filters[internalNote]=y', { uid: 'api::author.author' }, invalidKey('internalNote', 'internalNote', 'filters')],
  ])('%s (%j)', (raw, opts, expected) => {
    expect(parseError(raw, opts)).toEqual(expected);
  });

  it.each([
    ['filters[views][$in]=', '$in', 'views'],
    ['filters[views][$lt]=abc', '$lt', 'views'],
    ['filters[views][$gt]=1e400', '$gt', 'views'],
    ['filters[featured][$eq]=maybe', '$eq', 'featured'],
    ['filters[publishDate][$gt]=2024-02-30', '$gt', 'publishDate'],
    ['filters[createdAt][$lt]=yesterday', '$lt', 'createdAt'],
    ['filters[createdAt][$lt]=2024-01-01T10:00:00+02:00', '$lt', 'createdAt'],
    ['filters[views][$between]=1', '$between', 'views'],
    ['filters[views][$between][0]=1&filters[views][$between][1]=2&filters[views][$between][2]=3', '$between', 'views'],
    ['filters[title][$eq][$gt]=a', '$eq', 'title'],
    ['filters[title][$contains][$ne]=a', '$contains', 'title'],
    ['filters[title][$null]=yes', '$null', 'title'],
    ['filters[$and]=x', '$and', null],
    ['filters[$or][title]=x', '$or', null],
    ['filters[$not]=x', '$not', null],
  ])('%s is a 400 naming %s (Strapi: 500)', (raw, key, path) => {
    expect(parseError(raw)).toMatchObject({ name: 'ValidationError', details: { key, path, source: 'query', param: 'filters' } });
  });
});
