import { memoryEngine, type IndexSpec, type Pipeline } from '../../../lib/engine';
import { indexCheckedEngine, indexViolations } from '../../helpers/index-eligibility';

const indexes = new Map<string, IndexSpec[]>([
  ['authors', [{ name: 'document_locale_status', keys: { documentId: 1, locale: 1, _status: 1 }, unique: true }]],
  ['articles', [{ name: 'author', keys: { author: 1 } }, { name: 'list', keys: { _status: 1, locale: 1, id: 1 } }]],
]);

describe('indexViolations', () => {
  it.each<[string, Pipeline, string[]]>([
    ['no lookup', [{ $match: { _status: 'published' } }, { $sort: { id: 1 } }], []],
    ['concise join on an index prefix', [{ $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [], as: 'a' } }], []],
    ['join on _id', [{ $lookup: { from: 'authors', localField: 'x', foreignField: '_id', as: 'a' } }], []],
    [
      'correlated by $expr only',
      [{ $lookup: { from: 'authors', let: { v: '$author' }, pipeline: [{ $match: { $expr: { $eq: ['$documentId', '$$v'] } } }], as: 'a' } }],
      ['articles: $lookup from authors as a: no localField/foreignField (a foreign match by $expr or a scan)'],
    ],
    [
      'uncorrelated',
      [{ $lookup: { from: 'authors', pipeline: [{ $match: { name: 'x' } }], as: 'f' } }],
      ['articles: $lookup from authors as f: no localField/foreignField (a foreign match by $expr or a scan)'],
    ],
    [
      'a foreign field that leads no index (locale is second in the documentId index)',
      [{ $lookup: { from: 'authors', localField: 'loc', foreignField: 'locale', as: 'a' } }],
      ['articles: $lookup from authors as a: no index of authors starts with locale'],
    ],
    [
      'nested inside a lookup, $unionWith and $facet',
      [
        { $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', as: 'a', pipeline: [{ $lookup: { from: 'articles', localField: 'documentId', foreignField: 'title', as: 't' } }] } },
        { $unionWith: { coll: 'articles', pipeline: [{ $lookup: { from: 'authors', let: {}, pipeline: [], as: 'u' } }] } },
        { $facet: { data: [{ $lookup: { from: 'nowhere', localField: 'a', foreignField: 'b', as: 'n' } }] } },
      ],
      [
        'articles > authors: $lookup from articles as t: no index of articles starts with title',
        'articles > $unionWith articles: $lookup from authors as u: no localField/foreignField (a foreign match by $expr or a scan)',
        'articles > $facet data: $lookup from nowhere as n: no index of nowhere starts with b',
      ],
    ],
  ])('%s', (_name, pipeline, expected) => {
    expect(indexViolations('articles', pipeline, indexes)).toEqual(expected);
  });
});

describe('indexCheckedEngine', () => {
  it('rejects an aggregate that is not index-eligible and runs the others, with the engine itself behind', async () => {
    const inner = memoryEngine({ ephemeral: true });
    const engine = indexCheckedEngine(inner);
    await engine.init([{ name: 'authors', indexes: indexes.get('authors')! }, { name: 'articles', indexes: indexes.get('articles')! }]);
    await engine.insertMany('authors', [{ documentId: 'a1', name: 'Ann' }]);
    await engine.insertMany('articles', [{ id: 1, author: 'a1' }]);
    const good = [{ $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [{ $project: { _id: 0, name: 1 } }], as: 'a' } }, { $project: { _id: 0, a: 1 } }];
    expect(await engine.aggregate('articles', good)).toEqual([{ a: [{ name: 'Ann' }] }]);
    const bad = [{ $lookup: { from: 'authors', pipeline: [], as: 'a' } }];
    await expect(engine.aggregate('articles', bad)).rejects.toThrow(/not index-eligible on MongoDB/);
    expect(engine.stats).toBe(inner.stats);
    expect(engine.stats.aggregate).toBe(1);
  });
});
