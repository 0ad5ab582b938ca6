import { indexesFor } from '../../../lib/engine/indexes';
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
