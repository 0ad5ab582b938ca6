import { Query } from 'mingo';
import type { Row } from '../../../lib/engine';
import { MemoryCollection } from '../../../lib/engine/memory/storage/memory-collection';
import { selectCandidates } from '../../../lib/engine/memory/storage/select-candidates';

function collection(): MemoryCollection {
  const col = new MemoryCollection('articles');
  const rows: Row[] = [
    { _id: 1, id: 1, documentId: 'a', slug: 'one', locale: 'en', _status: 'draft', author: 7 },
    { _id: 2, id: 2, documentId: 'a', slug: 'one', locale: 'en', _status: 'published', author: 7 },
    { _id: 3, id: 3, documentId: 'b', slug: ['one', 'two'], locale: 'fr', _status: 'draft', author: null },
    { _id: 4, id: 4, documentId: 'c', slug: 'two', locale: 'en', _status: 'draft' },
    { _id: 5, id: 5, documentId: 'd', slug: 1, locale: 'en', _status: 'draft', author: [7, 8] },
  ];
  for (const row of rows) col.insert(row);
  col.setIndexes([
    { name: 'document_locale_status', keys: { documentId: 1, locale: 1, _status: 1 }, unique: true },
    { name: 'unique_slug', keys: { slug: 1, locale: 1, _status: 1 }, unique: true, partialFilter: { slug: { $type: 'string' } } },
    { name: 'list_scope_id', keys: { _status: 1, locale: 1, id: 1 } },
    { name: 'author', keys: { author: 1 } },
  ]);
  return col;
}

describe('selectCandidates', () => {
  it('takes candidates from the indexes of documentId, id, unique attributes and one-field indexes, never from a scope index', () => {
    const col = collection();
    expect(col.candidateFields()).toEqual(['documentId', 'id', 'slug', 'author']);
    expect(selectCandidates(col, { slug: 'two', documentId: { $ne: 'c' }, _status: 'draft' }).map((r) => r._id)).toEqual([3, 4]);
    expect(selectCandidates(col, { author: { $in: [8] } }).map((r) => r._id)).toEqual([5]);
    expect(selectCandidates(col, { _status: 'draft' })).toBe(col.all());
  });

  it.each([
    [{ slug: 'one', documentId: { $ne: 'b' } }],
    [{ slug: 'two' }],
    [{ slug: 1 }],
    [{ slug: { $in: ['two', 1] }, _status: 'draft' }],
    [{ $and: [{ slug: 'one' }, { locale: 'en' }] }],
    [{ author: 7 }],
    [{ author: { $eq: 8 } }],
    [{ author: null }],
    [{ slug: 'nothing' }],
  ])('is a superset of what %j matches (arrays matched by element, as MongoDB does)', (filter) => {
    const col = collection();
    const expected = new Query(filter).find<Row>([...col.all()]).all().map((r) => r._id);
    const candidates = selectCandidates(col, filter).map((r) => r._id);
    expect(expected.filter((id) => !candidates.includes(id))).toEqual([]);
  });
});
