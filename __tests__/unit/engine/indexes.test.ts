import { indexesFor, SINGLE_TYPES_COLLECTION, uniqueIndexAttribute, uniqueIndexName } from '../../../lib/engine/indexes';
import { compilePartialFilter } from '../../../lib/engine/memory/storage/partial-filter';
import { createRegistry } from '../../../lib/schema';
import { loadBlogRegistry } from '../../helpers/blog-registry';

const collections = indexesFor(loadBlogRegistry());
const indexes = (name: string): Record<string, Record<string, number>> =>
  Object.fromEntries(collections.find((c) => c.name === name)!.indexes.map((i) => [i.name, i.keys]));

describe('indexesFor', () => {
  it.each([
    ['articles: draft & publish, localized', 'articles', { _status: 1, locale: 1, id: 1 }],
    ['files: neither (the unique id index serves the list)', 'files', undefined],
  ])('the list index: root $match equalities, then the default sort (%s)', (_name, collection, keys) => {
    expect(indexes(collection).list_scope_id).toEqual(keys);
  });

  it('every foreign field a relation $lookup joins on is the first key of an index of the target', () => {
    const first = (name: string): string[] => collections.find((c) => c.name === name)!.indexes.map((i) => Object.keys(i.keys)[0]!);
    expect(first('authors')).toContain('documentId');
    expect(first('files')).toContain('id');
    expect(first('articles')).toEqual(expect.arrayContaining(['documentId', 'author', 'categories']));
  });

  it('keeps fixed, unique names per collection', () => {
    for (const c of collections) expect(new Set(c.indexes.map((i) => i.name)).size).toBe(c.indexes.length);
    expect(indexes('articles').document_locale_status).toEqual({ documentId: 1, locale: 1, _status: 1 });
  });
});

const page = {
  kind: 'collectionType',
  collectionName: 'pages',
  info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
  options: { draftAndPublish: true },
  attributes: {
    title: { type: 'string' },
    slug: { type: 'uid', targetField: 'title' },
    code: { type: 'string', unique: true },
    rank: { type: 'integer', unique: true },
    big: { type: 'biginteger', unique: true },
    flag: { type: 'boolean', unique: true },
    meta: { type: 'json', unique: true },
  },
};
const global = {
  kind: 'singleType',
  collectionName: 'globals',
  info: { singularName: 'global', pluralName: 'globals', displayName: 'Global' },
  attributes: { siteName: { type: 'string' } },
};

describe('indexesFor: unique attributes', () => {
  const registry = createRegistry({ contentTypes: [page, global] as never });
  const collections = indexesFor(registry);
  const pages = collections.find((c) => c.name === 'pages')!;

  it.each([
    ['slug', 'string'],
    ['code', 'string'],
    ['rank', 'number'],
    ['big', 'string'],
    ['flag', 'bool'],
  ])('%s: unique on { %s, locale, _status }, partial on $type %s', (attribute, type) => {
    expect(pages.indexes.find((i) => i.name === `unique_${attribute}`)).toEqual({
      name: `unique_${attribute}`,
      keys: { [attribute]: 1, locale: 1, _status: 1 },
      unique: true,
      partialFilter: { [attribute]: { $type: type } },
    });
  });

  it('gives json attributes and attributes that are not unique no unique index', () => {
    expect(pages.indexes.map((i) => i.name)).not.toContain('unique_meta');
    expect(pages.indexes.map((i) => i.name)).not.toContain('unique_title');
  });

  it('declares the single-type claims collection when there is a single type', () => {
    expect(collections.find((c) => c.name === SINGLE_TYPES_COLLECTION)).toEqual({ name: SINGLE_TYPES_COLLECTION, indexes: [] });
    const onlyPages = indexesFor(createRegistry({ contentTypes: [page] as never }));
    expect(onlyPages.map((c) => c.name)).not.toContain(SINGLE_TYPES_COLLECTION);
  });

  it('maps index names to attributes and back', () => {
    expect(uniqueIndexName('slug')).toBe('unique_slug');
    expect(uniqueIndexAttribute('unique_slug')).toBe('slug');
    expect(uniqueIndexAttribute('document_locale_status')).toBeUndefined();
  });
});

describe('compilePartialFilter (MongoDB $type semantics, memory engine)', () => {
  it.each([
    [{ a: { $type: 'string' } }, { a: 'x' }, true],
    [{ a: { $type: 'string' } }, { a: '' }, true],
    [{ a: { $type: 'string' } }, { a: null }, false],
    [{ a: { $type: 'string' } }, {}, false],
    [{ a: { $type: 'string' } }, { a: 1 }, false],
    [{ a: { $type: 'string' } }, { a: [1, 'x'] }, true],
    [{ a: { $type: 'number' } }, { a: 0 }, true],
    [{ a: { $type: 'number' } }, { a: '1' }, false],
    [{ a: { $type: 'bool' } }, { a: false }, true],
    [{ a: { $type: ['string', 'number'] } }, { a: 2 }, true],
    [{ a: { $type: 'null' } }, { a: null }, true],
    [{ a: { $type: 'null' } }, {}, false],
    [{ $and: [{ a: { $type: 'string' } }, { b: { $type: 'number' } }] }, { a: 'x', b: 1 }, true],
    [{ a: { $type: 'string' }, b: { $type: 'number' } }, { a: 'x' }, false],
  ])('%j on %j -> %p', (filter, row, expected) => {
    expect(compilePartialFilter(filter)(row)).toBe(expected);
  });

  it.each([
    [{ a: { $gt: 1 } }],
    [{ a: { $type: 'regex' } }],
    [{ 'a.b': { $type: 'string' } }],
    [{ a: { $type: 'string', $exists: true } }],
  ])('refuses %j instead of ignoring it', (filter) => {
    expect(() => compilePartialFilter(filter)).toThrow('unsupported partial index condition');
  });
});
