import { addAnswerKeys, addPipelineDependencies, emptyDependencies, pinnedKeys } from '../../../lib/cache/read-dependencies';

const join = (from: string, localField: string, foreignField: string, pipeline: object[] = [], as = localField) => ({ $lookup: { from, localField, foreignField, pipeline, as } });
const summary = (collection: string, pipeline: object[]) => {
  const deps = emptyDependencies();
  const walk = addPipelineDependencies(deps, collection, pipeline as never);
  return { sets: [...deps.sets].sort(), keyed: Object.fromEntries([...deps.keyed].map(([c, f]) => [c, [...f].sort()])), documentIds: [...deps.documentIds], walk };
};

describe('addPipelineDependencies', () => {
  test.each<[string, string, object[], ReturnType<typeof summary>]>([
    ['a list: the collection is a set', 'articles', [{ $match: { _status: 'published' } }, { $sort: { id: 1 } }, { $limit: 25 }], { sets: ['articles'], keyed: {}, documentIds: [], walk: false }],
    ['a findOne: keyed by its documentId', 'articles', [{ $match: { documentId: 'a1', _status: 'published' } }, { $sort: { id: 1 } }, { $limit: 1 }], { sets: [], keyed: { articles: ['documentId'] }, documentIds: ['a1'], walk: false }],
    ['a populate of the owning side: keyed', 'articles', [{ $match: {} }, { $limit: 2 }, join('authors', 'author', 'documentId', [join('files', 'avatar', 'id')]), { $addFields: { author: 1 } }], { sets: ['articles'], keyed: { authors: ['documentId'], files: ['id'] }, documentIds: [], walk: true }],
    ['a populate with its scope and key order: keyed', 'articles', [{ $match: {} }, join('categories', 'categories', 'documentId', [{ $match: { _status: 'published', $expr: { $eq: ['$locale', '$$loc'] } } }, { $sort: { __o1: 1, id: 1 } }, { $limit: 10001 }])], { sets: ['articles'], keyed: { categories: ['documentId'] }, documentIds: [], walk: true }],
    ['the mappedBy side (the articles whose author is X): a set', 'authors', [{ $match: {} }, join('articles', 'documentId', 'author', [{ $match: { _status: 'published' } }])], { sets: ['articles', 'authors'], keyed: {}, documentIds: [], walk: false }],
    ['a relation filter (a join then a $match): a set', 'articles', [{ $match: {} }, join('authors', 'author', 'documentId', [{ $match: { name: 'x' } }], '__rf1'), { $match: { __rf1: { $ne: [] } } }], { sets: ['articles', 'authors'], keyed: {}, documentIds: [], walk: false }],
    ['a relation sort (a join before $sort), even by key: a set', 'articles', [{ $match: {} }, join('authors', 'author', 'documentId'), { $sort: { 'author.name': 1 } }, { $limit: 5 }], { sets: ['articles', 'authors'], keyed: {}, documentIds: [], walk: false }],
    ['a populate filter: a set', 'articles', [{ $match: {} }, join('authors', 'author', 'documentId', [{ $match: { name: { $regex: 'a' } } }])], { sets: ['articles', 'authors'], keyed: {}, documentIds: [], walk: false }],
    ['a populate sorted by a field: a set', 'articles', [{ $match: {} }, join('categories', 'categories', 'documentId', [{ $sort: { name: 1 } }, { $limit: 2 }])], { sets: ['articles', 'categories'], keyed: {}, documentIds: [], walk: false }],
    ['a populate that projects its key away: a set', 'articles', [{ $match: {} }, join('authors', 'author', 'documentId', [{ $project: { name: 1 } }])], { sets: ['articles', 'authors'], keyed: {}, documentIds: [], walk: false }],
    ['joins inside a set join are sets', 'articles', [{ $match: {} }, join('authors', 'author', 'documentId', [join('files', 'avatar', 'id'), { $match: { name: 'x' } }], '__rf1'), { $match: { __rf1: { $ne: [] } } }], { sets: ['articles', 'authors', 'files'], keyed: {}, documentIds: [], walk: false }],
    ['a count ($unionWith) and $graphLookup and $facet: sets', 'articles', [{ $match: { documentId: 'a1' } }, { $unionWith: { coll: 'articles', pipeline: [join('tags', 'tags', 'documentId')] } }, { $graphLookup: { from: 'categories' } }, { $facet: { x: [join('files', 'cover', 'id')] } }], { sets: ['articles', 'categories', 'files', 'tags'], keyed: { articles: ['documentId'] }, documentIds: ['a1'], walk: false }],
  ])('%s', (_, collection, pipeline, expected) => {
    expect(summary(collection, pipeline)).toEqual(expected);
  });
});

describe('pinnedKeys', () => {
  test.each<[object, ReturnType<typeof pinnedKeys>]>([
    [{ documentId: 'a', locale: 'en' }, { field: 'documentId', values: ['a'] }],
    [{ documentId: { $in: ['a', 'b'] } }, { field: 'documentId', values: ['a', 'b'] }],
    [{ id: { $eq: 3 } }, { field: 'id', values: ['3'] }],
    [{ documentId: { $ne: 'a' } }, undefined],
    [{ documentId: { $in: ['a'], $nin: ['b'] } }, undefined],
    [{ title: 'x' }, undefined],
  ])('%j', (filter, expected) => {
    expect(pinnedKeys(filter as Record<string, unknown>)).toEqual(expected);
  });
});

test('addAnswerKeys collects every documentId and id of the rows, joined rows included', () => {
  const deps = emptyDependencies();
  addAnswerKeys(deps, [{ id: 1, documentId: 'a', author: { id: 7, documentId: 'x', avatar: { id: 3 } }, categories: [{ id: 2, documentId: 'c' }], data: Buffer.from('zz') }]);
  expect([...deps.documentIds].sort()).toEqual(['a', 'c', 'x']);
  expect([...deps.ids].sort()).toEqual(['1', '2', '3', '7']);
});
