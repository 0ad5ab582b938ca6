import { memoryEngine, type Engine, type Pipeline, type Row } from '../../../lib/engine';
import { deepFreeze } from '../../../lib/query';
import { mutateDeep } from '../../helpers/mutate-deep';
import { aggregateVariants } from '../../../lib/engine/memory/memory-engine';
import { differences, FAST_PATH_VARIANTS } from '../../helpers/fast-path-check';

/**
 * Populate shapes of the pipeline compiler (fast-paths/batched-lookup, indexed-lookup, first-or-null...), at the
 * top level and inside a page `$facet`, on rows with nulls, missing keys, duplicates and mixed types: exactly the
 * answer of the general path (mingo with the manual's `$lookup`), with each fast path switched off in turn and all
 * of them off, and results that share nothing with stored rows nor with each other.
 */
describe('memory engine populate stages give the manual\'s results', () => {
  let engine: Engine;

  const articles = (): Row[] => [
    { id: 3, documentId: 'd3', _status: 'published', locale: 'en', title: 'b', author: 'a1', cats: ['c2', 'c1', 'c2'], cover: 1, gallery: [2, 1], dz: [{ __component: 'm', file: 2 }] },
    { id: 1, documentId: 'd1', _status: 'published', locale: 'en', title: 'a', author: null, cats: null, cover: null, gallery: null },
    { id: 2, documentId: 'd1', _status: 'published', locale: 'fr', title: 'b', author: 'a2', cats: ['c9'], cover: 99 },
    { id: 4, documentId: 'd4', _status: 'draft', locale: 'en', title: 'B', author: 7, cats: 'c1', cover: 'x', gallery: [1, 1] },
    { id: 5, documentId: 'd5', _status: 'published', title: 'é', author: ['a1'], cats: [null, 'c2'], gallery: [], dz: [{ file: [1, 3] }, { x: 1 }, [{ file: 2 }], null] },
    { id: 6, documentId: 'd3', _status: 'published', locale: 'fr', title: 10, author: 'a1', cats: ['c1', 'c3', 'c5', 'c4'], cover: 2 },
    { id: 7, documentId: 'd7', _status: 'published', locale: 'en', title: 'c', author: true, cats: ['c4', 'c2', 'c4', 'c1'], cover: 3, gallery: [3, 2, 3], dz: [{ __component: 'm' }] },
    // Batched localizations: a bucket out of id order, a null locale, a numeric locale.
    { id: 0, documentId: 'd3', _status: 'published', locale: 'de', title: 'z', author: 'a2' },
    { id: 8, documentId: 'd7', _status: 'published', locale: null, title: 'n' },
    { id: 9, documentId: 'd4', _status: 'published', locale: 5, title: 'five' },
  ];
  const authors = (): Row[] => [
    { id: 1, documentId: 'a1', name: 'Ann', locale: 'en', avatar: 2, best: 'd3', likes: ['d1', 'd3'] },
    { id: 2, documentId: 'a2', name: 'Bob', locale: 'fr', avatar: null, best: 'd1', likes: 'd3' },
    { id: 3, documentId: null, name: 'Nul', likes: [null] },
    { id: 4, documentId: 7, name: 'Seven', locale: 'en', likes: [] },
    { id: 5, name: 'Missing', avatar: 1 },
    { id: 6, documentId: 'a1', name: 'Ann fr', locale: 'fr', avatar: 1, likes: ['d7', ['d1']] },
  ];
  const categories = (): Row[] => [
    { id: 1, documentId: 'c1', name: 'one', parent: 'c2', tags: { a: [1] } },
    { id: 2, documentId: 'c2', name: 'two', parent: 'c3' },
    { id: 3, documentId: 'c3', name: 'three', parent: null },
    { id: 4, documentId: 'c1', name: 'one again', parent: 'c1' },
    // Batched lookups: a bucket out of id order, a temp name taken, a non-numeric id, an array key, a boolean key.
    { id: 0, documentId: 'c2', name: 'zero', parent: 'c1' },
    { id: 8, documentId: 'c3', name: 'temp', __o: 1 },
    { id: 'x', documentId: 'c5', name: 'text id' },
    { id: 9, documentId: ['c4'], name: 'array key' },
    { id: 10, documentId: 'c4', name: 'four', parent: 'c2' },
    { id: 11, documentId: true, name: 'boolean' },
  ];
  const files = (): Row[] => [
    { id: 1, name: 'f1', formats: { small: { url: '/s1' } } },
    { id: 2, name: 'f2', formats: null },
    { id: 3, name: 'f3', _status: 'draft' },
    { id: 3, name: 'f3 again', _status: 'published' },
  ];

  beforeEach(async () => {
    engine = memoryEngine({ ephemeral: true });
    await engine.insertMany('articles', articles());
    await engine.insertMany('authors', authors());
    await engine.insertMany('categories', categories());
    await engine.insertMany('files', files());
  });
  afterEach(() => engine.close());

  async function expectManual(pipeline: Pipeline): Promise<Row[]> {
    const results = await aggregateVariants(engine, 'articles', pipeline, {}, FAST_PATH_VARIANTS);
    expect(differences('articles', pipeline, FAST_PATH_VARIANTS, results)).toEqual([]);
    const expected = results[0]!;
    if (expected instanceof Error) {
      await expect(engine.aggregate('articles', pipeline)).rejects.toThrow(expected.message);
      return [];
    }
    const actual = await engine.aggregate('articles', pipeline);
    expect(actual).toEqual(expected);
    expect(await engine.aggregate('articles', pipeline, { readOnly: true })).toEqual(expected);
    const again = await engine.aggregate('articles', pipeline);
    mutateDeep(actual);
    expect(await engine.aggregate('articles', pipeline)).toEqual(again);
    return actual;
  }


  const firstOrNull = (name: string): Row => ({ $addFields: { [name]: { $ifNull: [{ $arrayElemAt: [`$${name}`, 0] }, null] } } });
  const toOne = (from: string, local: string, key: string, rest: Pipeline = []): Pipeline => [
    { $lookup: { from, localField: local, foreignField: key, pipeline: rest, as: local } },
    firstOrNull(local),
  ];
  /** The compiler's to-many join: `scope` (leading `$match`es), the relation order on the stored array, `rest`. */
  const toMany = (from: string, local: string, key: string, rest: Pipeline = [], order = true, scope: Pipeline = []): Row => ({
    $lookup: {
      from,
      localField: local,
      foreignField: key,
      ...(order ? { let: { ids: `$${local}` } } : {}),
      pipeline: [
        ...scope,
        ...(order ? [{ $addFields: { __o: { $indexOfArray: ['$$ids', `$${key}`] } } }, { $sort: { __o: 1, id: 1 } }, { $unset: ['__o'] }] : []),
        ...rest,
      ],
      as: local,
    },
  });
  const localizations = (): Row => ({ $lookup: { from: 'articles', localField: 'documentId', foreignField: 'documentId', let: { loc: '$locale' }, pipeline: [{ $match: { _status: 'published' } }, { $match: { $expr: { $ne: ['$locale', '$$loc'] } } }, { $sort: { id: 1 } }], as: 'localizations' } });
  const page = (rest: Pipeline, limit = 10): Row => ({ $facet: { data: [{ $skip: 0 }, { $limit: limit }, ...rest], total: [{ $count: 'count' }] } });

  const shapes: [string, Pipeline][] = [
    ['to-one relation, media single', [...toOne('authors', 'author', 'documentId'), ...toOne('files', 'cover', 'id')]],
    ['to-many in relation order, media multiple', [toMany('categories', 'cats', 'documentId'), toMany('files', 'gallery', 'id')]],
    ['to-many with a populate sort', [toMany('categories', 'cats', 'documentId', [{ $sort: { name: -1, id: 1 } }], false)]],
    ['populate filters and fields', [toMany('categories', 'cats', 'documentId', [{ $match: { name: { $ne: 'two' } } }, { $project: { id: 1, name: 1 } }])]],
    ['count', [toMany('categories', 'cats', 'documentId', [{ $count: 'count' }], false), { $addFields: { cats: { $ifNull: [{ $arrayElemAt: ['$cats', 0] }, { count: 0 }] } } }]],
    ['projections of top-level fields', [toOne('authors', 'author', 'documentId', [{ $project: { name: true, _id: 1, locale: 1, nope: 1 } }])[0]!, { $project: { id: 1, title: true, author: 1, cover: 1, gallery: 1, missing: 1 } }]],
    ['a projection mingo runs itself (nested path, exclusion)', [{ $project: { 'author.x': 1, id: 1 } }, { $project: { title: 0 } }]],
    ['mingo $addFields on rows reduced to the fields read: removal, missing fields', [{ $addFields: { title: '$nope', extra: { $concat: ['x-', { $toString: '$id' }] }, cover: { $ifNull: ['$cover', 'none'] }, dz: { $map: { input: { $ifNull: ['$dz', []] }, as: 'c', in: { $mergeObjects: ['$$c', { seen: '$$c.file' }] } } } } }]],
    ['mingo $addFields reading $$ROOT (whole rows)', [{ $addFields: { size: { $size: { $objectToArray: '$$ROOT' } }, title: '$$CURRENT.title' } }]],
    ['a dotted localField through a dynamic zone: items without the key, arrays inside arrays', [{ $lookup: { from: 'files', localField: 'dz.file', foreignField: 'id', pipeline: [{ $sort: { id: 1 } }], as: 'files' } }]],
    ['the plain equality form (no pipeline)', [{ $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', as: 'authors' } }]],
    ['mappedBy to-one', [{ $lookup: { from: 'authors', localField: 'documentId', foreignField: 'best', pipeline: [], as: 'fan' } }, firstOrNull('fan')]],
    ['mappedBy to-many: an array foreign field, null and nested arrays in it', [{ $lookup: { from: 'authors', localField: 'documentId', foreignField: 'likes', pipeline: [{ $sort: { id: 1 } }], as: 'fans' } }]],
    ['same-row locale scope', [{ $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', let: { loc: '$locale' }, pipeline: [{ $match: { $expr: { $eq: ['$locale', '$$loc'] } } }], as: 'author' } }, firstOrNull('author')]],
    ['localizations', [localizations()]],
    ['nested 3 levels', [
      ...toOne('authors', 'author', 'documentId', toOne('files', 'avatar', 'id')),
      toMany('categories', 'cats', 'documentId', toOne('categories', 'parent', 'documentId', toOne('categories', 'parent', 'documentId'))),
    ]],
    ['outer variables in a nested sub-pipeline', [toMany('categories', 'cats', 'documentId', [{ $lookup: { from: 'categories', localField: 'parent', foreignField: 'documentId', let: { p: '$parent' }, pipeline: [{ $addFields: { outer: '$$ids', own: '$$p' } }], as: 'up' } }])]],
    ['batched: to-one with plain scopes', [...toOne('authors', 'author', 'documentId', [{ $match: { locale: 'en' } }]), ...toOne('files', 'cover', 'id', [{ $match: { _status: { $ne: 'draft' } } }])]],
    ['batched: to-many in relation order after plain filters', [toMany('categories', 'cats', 'documentId', [], true, [{ $match: { name: { $ne: 'two' } } }, { $match: { parent: { $ne: null } } }]), toMany('files', 'gallery', 'id', [], true, [{ $match: { name: { $regex: '^f' } } }])]],
    ['to-many in relation order after a same-row locale scope', [{ $lookup: { ...(toMany('authors', 'cats', 'documentId', [], true, [{ $match: { $expr: { $eq: ['$locale', '$$loc'] } } }]).$lookup as Row), let: { ids: '$cats', loc: '$locale' } } }]],
    ['batched: to-many without order', [toMany('categories', 'cats', 'documentId', [{ $match: { name: { $regex: 'o' } } }], false), toMany('files', 'gallery', 'id', [], false)]],
    ['batched: a boolean or numeric key', [...toOne('categories', 'author', 'documentId')]],
    ['batched: variable $expr and a sort by id', [{ $lookup: { from: 'articles', localField: 'documentId', foreignField: 'documentId', let: { loc: '$locale' }, pipeline: [{ $match: { $expr: { $eq: ['$$loc', '$locale'] } } }, { $sort: { id: 1 } }], as: 'same' } }]],
    ['batched: unused let variables', [{ $lookup: { from: 'categories', localField: 'cats', foreignField: 'documentId', let: { ids: { $ifNull: ['$cats', []] }, loc: '$locale' }, pipeline: [{ $match: { parent: { $exists: true } } }], as: 'cats' } }]],
    ['a relation sort key: $limit 1, a projection, $min', [{ $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [{ $limit: 1 }, { $project: { _id: 0, k: '$name' } }], as: '__s1' } }, { $addFields: { __sk1: { $min: '$__s1.k' } } }, { $sort: { __sk1: 1, id: 1 } }, { $unset: ['__s1', '__sk1'] }]],
    ['a component media lookup with temps', [
      { $lookup: { from: 'files', localField: 'dz.file', foreignField: 'id', pipeline: [], as: '__p1' } },
      { $addFields: { dz: { $map: { input: { $ifNull: ['$dz', []] }, as: 'c', in: { $mergeObjects: ['$$c', { file: { $ifNull: [{ $arrayElemAt: [{ $filter: { input: '$__p1', as: 'r', cond: { $eq: ['$$r.id', '$$c.file'] } } }, 0] }, null] } }] } } } } },
      { $unset: ['__p1'] },
    ]],
  ];

  it.each(shapes)('%s', async (_name, stages) => {
    const scope = { $match: { _status: 'published' } };
    await expectManual([scope, ...stages]);
    await expectManual([scope, { $sort: { id: 1 } }, page(stages)]);
    await expectManual([scope, { $sort: { title: -1, id: 1 } }, page(stages, 2)]);
    await expectManual(stages);
    // Frozen stages are compiled once and kept (row-stages' StageContext.compiled): the second run reuses them.
    const frozen = deepFreeze(structuredClone([scope, { $sort: { id: 1 } }, page(stages)]));
    await expectManual(frozen);
    await expectManual(frozen);
  });

  it('a let computed by mingo on rows that hold its temporary field, or reading $$ROOT', async () => {
    await engine.insertMany('articles', [{ id: 30, documentId: 'd30', _status: 'published', __content_router_let: { ids: [1] }, dz: [{ file: 2 }] }]);
    const lookup = (letSpec: Row): Pipeline => [{ $match: { _status: 'published' } }, { $lookup: { from: 'files', localField: 'dz.file', foreignField: 'id', let: letSpec, pipeline: [{ $match: { $expr: { $in: ['$id', '$$ids'] } } }], as: 'files' } }];
    await expectManual(lookup({ ids: { $ifNull: [{ $map: { input: { $ifNull: ['$dz', []] }, as: 'd', in: '$$d.file' } }, []] } }));
    await expectManual(lookup({ ids: { $concatArrays: [{ $ifNull: ['$__content_router_let.ids', []] }, [3]] } }));
    await expectManual(lookup({ ids: { $cond: [{ $gt: [{ $size: { $objectToArray: '$$ROOT' } }, 8] }, [1, 2], [3]] } }));
  });

  it('keeps stages compiled from a frozen pipeline correct across writes and a rollback', async () => {
    const stages = deepFreeze([{ $match: { _status: 'published' } }, { $sort: { id: 1 } }, page([
      ...toOne('authors', 'author', 'documentId', toOne('files', 'avatar', 'id')),
      toMany('categories', 'cats', 'documentId', [], true, [{ $match: { name: { $ne: 'two' } } }]),
      localizations(),
    ])]);
    const read = async (): Promise<string> => JSON.stringify(await engine.aggregate('articles', stages, { readOnly: true }));
    await expectManual(stages);
    const before = await read();
    await engine.updateMany('authors', { documentId: 'a1' }, { $set: { name: 'Changed', avatar: 1 } });
    await engine.deleteMany('categories', { documentId: 'c2' });
    await engine.insertMany('categories', [{ id: 12, documentId: 'c9', name: 'nine' }]);
    await engine.insertMany('articles', [{ id: 20, documentId: 'd3', _status: 'published', locale: 'it', title: 'it' }]);
    await expectManual(stages);
    const changed = await read();
    expect(changed).not.toBe(before);
    expect(changed).toContain('Changed');
    expect(changed).toContain('nine');
    // A transaction that fails is rolled back: the indexes the compiled stages read are rebuilt in place.
    await expect(engine.transaction(async () => {
      await engine.deleteMany('authors', {});
      await engine.insertMany('categories', [{ id: 13, documentId: 'c1', name: 'one more' }]);
      await engine.updateMany('articles', { documentId: 'd3' }, { $set: { locale: 'en' } });
      expect(await read()).not.toBe(changed);
      throw new Error('rollback');
    })).rejects.toThrow('rollback');
    expect(await read()).toBe(changed);
    await expectManual(stages);
  });

  it('stays correct after writes to a joined collection', async () => {
    const stages = [scopeAll, { $sort: { id: 1 } }, page([...toOne('authors', 'author', 'documentId'), toMany('categories', 'cats', 'documentId')])];
    await expectManual(stages);
    await engine.updateMany('authors', { documentId: 'a1' }, { $set: { name: 'Changed' } });
    await engine.deleteMany('categories', { documentId: 'c2' });
    await engine.insertMany('categories', [{ id: 9, documentId: 'c2', name: 'new two' }]);
    await expectManual(stages);
  });
});

const scopeAll = { $match: {} };

describe('the concise $lookup (localField + foreignField + pipeline) on the memory engine', () => {
  it('runs the pipeline on the matching rows only (issue 10: mingo runs it on the whole collection)', async () => {
    const engine = memoryEngine({ ephemeral: true });
    await engine.insertMany('a', [{ ids: ['x'] }]);
    await engine.insertMany('b', [{ k: 'x', v: 1 }, { k: 'y', v: 2 }]);
    const rows = await engine.aggregate('a', [{ $lookup: { from: 'b', localField: 'ids', foreignField: 'k', pipeline: [{ $project: { _id: 0, v: 1 } }], as: 'j' } }, { $project: { _id: 0, j: 1 } }]);
    expect(rows).toEqual([{ j: [{ v: 1 }] }]);
    await engine.close();
  });
});
