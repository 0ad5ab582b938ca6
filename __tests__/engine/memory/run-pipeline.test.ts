import { memoryEngine, type Engine, type Pipeline, type Row } from '../../../lib/engine';
import { aggregateVariants } from '../../../lib/engine/memory/memory-engine';
import { differences, FAST_PATH_VARIANTS } from '../../helpers/fast-path-check';

/**
 * The memory engine's fast paths (execution/fast-paths: indexed-match, relation-filter, sorted-page...) on edge
 * cases (mixed types, -0, nulls, missing keys, Object.prototype keys): the answer must be exactly the general
 * path's (mingo with the manual's semantics) on the same rows, with each fast path switched off in turn and with
 * all of them off.
 */
describe('memory engine fast paths give the general path\'s results', () => {
  let engine: Engine;

  const articles = (): Row[] => [
    { id: 3, documentId: 'd3', _status: 'published', locale: 'en', title: 'b', views: 2, author: 'a1', tags: ['x', 'y'], cats: ['c1'] },
    { id: 1, documentId: 'd1', _status: 'published', locale: 'en', title: 'a', views: 2, author: null, tags: 'x', cats: null },
    { id: 2, documentId: 'd2', _status: 'draft', locale: 'en', title: 'b', views: -0, author: 'a2', cats: ['c2', 'c1'] },
    { id: 4, documentId: 'd4', _status: 'published', locale: 'fr', title: 'B', views: 10, author: 7, tags: [['x']], cats: 'c1' },
    { id: 5, documentId: 'd5', _status: 'published', title: 'é', views: 1.5, author: ['a1'], cats: [null, 'c2'] },
    { id: 6, documentId: 'd6', _status: 'published', locale: 'en', title: 10, views: null, author: 'a3', constructor: 'x' },
  ];
  const authors = (): Row[] => [
    { id: 1, documentId: 'a1', name: 'Ann' },
    { id: 2, documentId: 'a2', name: 'Bob' },
    { id: 3, documentId: null, name: 'Nul' },
    { id: 4, documentId: 7, name: 'Seven' },
    { id: 5, name: 'Missing' },
  ];

  beforeEach(async () => {
    engine = memoryEngine({ ephemeral: true });
    await engine.insertMany('articles', articles());
    await engine.insertMany('authors', authors());
  });
  afterEach(() => engine.close());

  async function expectMingo(pipeline: Pipeline): Promise<Row[]> {
    const results = await aggregateVariants(engine, 'articles', pipeline, {}, FAST_PATH_VARIANTS);
    expect(differences('articles', pipeline, FAST_PATH_VARIANTS, results)).toEqual([]);
    const actual = await engine.aggregate('articles', pipeline).catch((error: Error) => error);
    expect(actual).toEqual(results[0]);
    return actual instanceof Error ? [] : actual;
  }

  const page = (skip: number, limit: number, rest: Pipeline = []): Row => ({ $facet: { data: [{ $skip: skip }, { $limit: limit }, ...rest], total: [{ $count: 'count' }] } });

  it.each<[string, Row]>([
    ['status and locale', { _status: 'published', locale: 'en' }],
    ['array membership and scalar equality', { tags: 'x' }],
    ['a nested array is not a member', { tags: ['x'] }],
    ['numbers, -0 and 0', { views: 0 }],
    ['a number never equals a string', { author: 7 }],
    ['an Object.prototype key', { constructor: 'x' }],
    ['null (mingo path)', { locale: null }],
    ['operators mixed with equalities', { _status: 'published', views: { $gte: 2 } }],
    ['indexed documentId and id', { documentId: { $in: ['d4', 'd1'] }, id: 4 }],
  ])('first $match: %s', async (_name, match) => {
    await expectMingo([{ $match: match }]);
    await expectMingo([{ $match: match }, { $sort: { id: 1 } }, page(0, 2)]);
  });

  it.each<[string, Record<string, number>]>([
    ['id (natural order is not id order here)', { id: 1 }],
    ['title desc, ties in input order', { title: -1 }],
    ['title then id', { title: 1, id: -1 }],
    ['numbers with -0 and null (keyed path)', { views: 1 }],
    ['mixed strings and numbers (keyed path)', { title: 1, id: 1 }],
    ['a dotted path (keyed path)', { 'a.b': 1, id: 1 }],
  ])('$sort then page facet, $limit, or nothing: %s', async (_name, sort) => {
    const published = { $match: { _status: 'published' } };
    const strings = { $match: { title: { $type: 'string' } } };
    for (const match of [published, strings]) {
      for (const [skip, limit] of [[0, 1], [1, 2], [0, 100], [9, 3]] as const) await expectMingo([match, { $sort: sort }, page(skip, limit)]);
      await expectMingo([match, { $sort: sort }, { $limit: 2 }]);
      await expectMingo([match, { $sort: sort }]);
      await expectMingo([match, { $sort: sort }, { $limit: 0 }]);
    }
  });

  // keyset-page (cursor pages, issue 32): the range after a position of the sort order, then $sort and $limit.
  it.each<[string, Row, Record<string, number>]>([
    ['after an id', { $or: [{ id: { $gt: 3 } }] }, { id: 1 }],
    ['after an id, descending', { $or: [{ id: { $lt: 4 } }] }, { id: -1 }],
    ['after a value with ties, then id', { $or: [{ views: { $gt: 2 } }, { $and: [{ views: { $eq: 2 } }, { id: { $gt: 1 } }] }] }, { views: 1, id: 1 }],
    ['after a null ascending', { $or: [{ views: { $ne: null } }, { $and: [{ views: { $eq: null } }, { id: { $gt: 0 } }] }] }, { views: 1, id: 1 }],
    ['descending with nulls last', { $or: [{ $or: [{ views: { $lt: 2 } }, { views: { $eq: null } }] }, { $and: [{ views: { $eq: 2 } }, { id: { $gt: 1 } }] }] }, { views: -1, id: 1 }],
    ['mixed types (a number title among strings)', { $or: [{ title: { $gt: 'a' } }, { $and: [{ title: { $eq: 'a' } }, { id: { $gt: 1 } }] }] }, { title: 1, id: 1 }],
    ['not a range of the order (the path declines)', { $or: [{ id: { $lt: 2 } }, { id: { $gt: 4 } }] }, { id: 1 }],
    ['a range of another order', { $or: [{ views: { $gt: 1 } }] }, { title: -1, id: 1 }],
  ])('keyset page: %s', async (_name, range, sort) => {
    for (const scope of [{ _status: 'published' }, { _status: 'published', locale: 'en' }]) {
      for (const limit of [1, 2, 100]) await expectMingo([{ $match: scope }, { $match: range }, { $sort: sort }, { $limit: limit }]);
    }
  });

  it('top-k of a large input: bounded buffer, ties, every page', async () => {
    const titles = ['m', 'a', 'z', 'k', 'a', 'q'];
    await engine.insertMany('articles', Array.from({ length: 300 }, (_, i) => ({
      id: 1000 - i, documentId: `x${i}`, _status: 'published', title: titles[(i * 7) % titles.length], views: (i * 37) % 11,
    })));
    const published = { $match: { _status: 'published', title: { $type: 'string' } } };
    for (const sort of [{ title: -1 }, { title: 1, views: -1 }, { views: 1, title: -1, id: 1 }, { id: -1 }, { id: 1 }]) {
      for (const [skip, limit] of [[0, 5], [10, 10], [290, 25]] as const) await expectMingo([published, { $sort: sort }, page(skip, limit)]);
      await expectMingo([published, { $sort: sort }, { $limit: 3 }]);
    }
  });

  it('page facets: empty input, key order, count only, stages after the facet, invalid forms', async () => {
    const none = { $match: { _status: 'nope' } };
    const rows = await expectMingo([none, { $sort: { id: 1 } }, page(0, 10)]);
    // $count outputs no document for no input, inside a $facet too (mingo's own $count gives { count: 0 }):
    // https://www.mongodb.com/docs/manual/reference/operator/aggregation/count/
    expect(rows).toEqual([{ data: [], total: [] }]);
    await expectMingo([{ $sort: { id: 1 } }, { $facet: { total: [{ $count: 'n' }], data: [{ $skip: 1 }, { $limit: 2 }, { $project: { title: 1 } }] } }]);
    await expectMingo([{ $sort: { id: 1 } }, { $facet: { data: [{ $skip: 0 }, { $limit: 2 }] } }, { $project: { n: { $size: '$data' } } }]);
    await expectMingo([{ $facet: { data: [{ $skip: 0 }, { $limit: 0 }] } }]);
    await expectMingo([{ $facet: { a: [{ $limit: 1 }], b: [{ $count: 'x' }] } }]);
    await expectMingo([{ $sort: { id: 1 } }, { $facet: { data: [{ $skip: 1 }, { $limit: 1 }], t: [{ $count: '$bad' }] } }]);
  });

  /** The relation-filter stages of pipeline/compile-filters: a concise correlated `$lookup`, `$match` on its size. */
  const relationFilter = (localField: string, match: Row, test: Row, foreignField = 'documentId'): Pipeline => [
    { $match: { _status: 'published' } },
    { $lookup: { from: 'authors', localField, foreignField, pipeline: [{ $match: match }, { $limit: 1 }, { $project: { _id: 1 } }], as: '__rf1' } },
    { $match: test },
    { $unset: ['__rf1'] },
  ];
  const some = { $nor: [{ __rf1: { $size: 0 } }] };
  const none = { __rf1: { $size: 0 } };

  it.each<[string, string, Row, Row]>([
    ['to-one, a number key, an array key', 'author', { name: { $in: ['Ann', 'Seven'] } }, some],
    ['null and missing keys meet null and missing documentIds', 'author', {}, some],
    ['"no related row"', 'author', { name: 'Ann' }, none],
    ['to-many, arrays holding null', 'cats', { name: { $ne: 'Bob' } }, some],
    ['$or and $and around it', 'cats', { name: 'Ann' }, { $or: [none, { $and: [{ views: 2 }] }] }],
    ['a path through an array of documents', 'blocks.author', { name: { $in: ['Ann', 'Nul'] } }, some],
    ['a path through an array of documents, "no related row"', 'blocks.author', { name: 'Bob' }, none],
  ])('relation filter: %s', async (_name, localField, targetMatch, test) => {
    await engine.insertMany('articles', [
      { id: 7, documentId: 'd7', _status: 'published', blocks: [{ author: 'a2' }, { text: 'x' }, { author: ['a1', null] }] },
      { id: 8, documentId: 'd8', _status: 'published', blocks: [{ author: [['a1']] }, 'a1'] },
      { id: 9, documentId: 'd9', _status: 'published', blocks: [] },
    ]);
    const [lookups, filter, unset] = [relationFilter(localField, targetMatch, test).slice(0, 2), test, { $unset: ['__rf1'] }];
    await expectMingo([...lookups, { $match: filter }, unset, { $sort: { id: 1 } }, page(0, 10)]);
    await expectMingo([...lookups, { $match: filter }, { $unset: '__rf1' }]);
    await expectMingo([...lookups, { $match: filter }, { $unset: ['__rf1', 'title'] }]);
    await expectMingo([...lookups, { $match: filter }]);
  });

  it('relation filter: a mappedBy side joins documentId to the owning field of the target', async () => {
    await engine.insertMany('authors', [{ id: 6, documentId: 'a6', name: 'Owner', book: 'd3' }, { id: 7, documentId: 'a7', name: 'Many', book: ['d1', 'd6'] }]);
    await expectMingo(relationFilter('documentId', { name: { $in: ['Owner', 'Many'] } }, some, 'book'));
    await expectMingo(relationFilter('documentId', { name: 'Owner' }, none, 'book'));
  });

  it('relation filter: a row that already holds the temp field, and nested relation filters', async () => {
    await engine.insertMany('articles', [{ id: 10, documentId: 'd10', _status: 'published', author: 'a1', __rf1: ['x'] }]);
    await expectMingo(relationFilter('author', { name: 'Ann' }, some));
    const nested = {
      $lookup: { from: 'articles', localField: 'documentId', foreignField: 'author', pipeline: [{ $match: { views: { $gte: 2 } } }, { $limit: 1 }, { $project: { _id: 1 } }], as: '__rf2' },
    };
    const inner = [nested, { $match: { $nor: [{ __rf2: { $size: 0 } }] } }];
    await expectMingo([
      { $match: { _status: 'published' } },
      { $lookup: { from: 'authors', localField: 'cats', foreignField: 'documentId', pipeline: [...inner, { $limit: 1 }, { $project: { _id: 1 } }], as: '__rf1' } },
      { $match: { $or: [some, { views: 1.5 }] } },
      { $unset: ['__rf1'] },
    ]);
  });

  it('relation filter: rows sharing a local value share its join, and only equal values do', async () => {
    await engine.insertMany('authors', [
      { id: 6, documentId: '["a1"]', name: 'json text' }, { id: 7, documentId: '1', name: 'string one' },
      { id: 8, documentId: 1, name: 'number one' }, { id: 9, documentId: true, name: 'true' }, { id: 10, documentId: 0, name: 'zero' },
    ]);
    await engine.insertMany('articles', [
      { id: 11, documentId: 'd11', _status: 'published', author: '["a1"]' }, { id: 12, documentId: 'd12', _status: 'published', author: ['a1'] },
      { id: 13, documentId: 'd13', _status: 'published', author: 1 }, { id: 14, documentId: 'd14', _status: 'published', author: '1' },
      { id: 15, documentId: 'd15', _status: 'published', author: -0 }, { id: 16, documentId: 'd16', _status: 'published', author: [] },
      { id: 17, documentId: 'd17', _status: 'published', author: [null] }, { id: 18, documentId: 'd18', _status: 'published', author: true },
      { id: 19, documentId: 'd19', _status: 'published', author: { documentId: 'a1' } }, { id: 20, documentId: 'd20', _status: 'published', author: NaN },
    ]);
    for (const name of ['json text', 'string one', 'number one', 'true', 'zero', 'Ann', 'Nul', 'Missing']) {
      await expectMingo(relationFilter('author', { name }, some));
      await expectMingo(relationFilter('author', { name }, { $or: [none, { views: { $gt: 1 } }, { 'tags.0': 'x' }] }));
      await expectMingo(relationFilter('author', { name }, { $and: [some, { $expr: { $gt: ['$views', 1] } }] }));
    }
  });

  it('relation filter on to-many arrays: each element joined once, the arrays of many rows', async () => {
    // relation-filter's per-element path: arrays of strings (nearly all distinct), duplicates, a one-element array
    // equal to another row's scalar, [], null, missing, arrays holding null or numbers, documents.
    const values: unknown[] = [['a1', 'a2'], ['a2', 'a1'], ['a2', 'a2'], ['a1'], 'a1', ['x', 'a2'], ['x', 'y'], [], null, undefined, ['a1', null], [7], [1, 'a1'], { d: 'a1' }, ['Nul'], 7];
    await engine.insertMany('articles', values.map((cats, i) => ({
      id: 100 + i, documentId: `m${i}`, _status: 'published', views: i % 3, ...(cats === undefined ? {} : { cats }), author: i % 2 ? 'a1' : ['a2', 'x'],
    })));
    const lookup = (localField: string, pipeline: Pipeline, as = '__rf1'): Row => ({ $lookup: { from: 'authors', localField, foreignField: 'documentId', pipeline, as } });
    const tail = [{ $limit: 1 }, { $project: { _id: 1 } }];
    const some2 = { $nor: [{ __rf2: { $size: 0 } }] };
    const none2 = { __rf2: { $size: 0 } };
    for (const names of [['Ann'], ['Bob'], ['Ann', 'Bob'], ['Seven'], ['nobody']]) {
      const byName = [{ $match: { name: { $in: names } } }, ...tail];
      for (const test of [some, none, { $or: [none, { views: 2 }] }, { $and: [some, { views: { $lt: 2 } }] }]) {
        await expectMingo([lookup('cats', byName), { $match: test }, { $unset: ['__rf1'] }]);
      }
      // Two relation filters in one $match, each asking only whether its join is empty.
      for (const test of [{ $and: [some, some2] }, { $or: [none, some2] }, { $nor: [some, none2] }, { $and: [some2, { $or: [none, { views: 0 }] }] }]) {
        await expectMingo([lookup('cats', byName), lookup('author', [{ $match: { name: { $ne: names[0] } } }, ...tail], '__rf2'), { $match: test }, { $unset: ['__rf1', '__rf2'] }]);
      }
    }
    // Shapes it must not take apart: a $limit before a $match (the first rows of the union may all be dropped),
    // a $match reading more than the size, a size other than 0.
    const first = [{ $sort: { id: -1 } }, { $limit: 1 }, { $match: { name: 'Ann' } }];
    await expectMingo([lookup('cats', first), { $match: some }, { $unset: ['__rf1'] }]);
    await expectMingo([lookup('cats', [{ $limit: 1 }, { $match: { name: 'Bob' } }]), { $match: some }, { $unset: ['__rf1'] }]);
    await expectMingo([lookup('cats', [{ $project: { name: 1 } }]), { $match: { '__rf1.name': 'Bob' } }, { $unset: ['__rf1'] }]);
    await expectMingo([lookup('cats', []), { $match: { __rf1: { $size: 2 } } }, { $unset: ['__rf1'] }]);
    await expectMingo([lookup('cats', [{ $match: { name: 'Ann' } }]), { $match: { $expr: { $gt: [{ $size: '$__rf1' }, 0] } } }, { $unset: ['__rf1'] }]);
  });

  it('relation filter chains as semi-joins (issue 29): nested levels, $or/$nor, component paths, populate sub-pipelines', async () => {
    // articles.author -> authors, authors.documentId <- articles.author (mappedBy), as compile-filters nests them.
    const tail = [{ $limit: 1 }, { $project: { _id: 1 } }];
    const toAuthor = (inner: Pipeline, as: string, localField = 'author'): Row => ({ $lookup: { from: 'authors', localField, foreignField: 'documentId', pipeline: [...inner, ...tail], as } });
    const toArticles = (inner: Pipeline, as: string): Row => ({ $lookup: { from: 'articles', localField: 'documentId', foreignField: 'author', pipeline: [{ $match: { _status: 'published' } }, ...inner, ...tail], as } });
    const some = (t: string): Row => ({ $nor: [{ [t]: { $size: 0 } }] });
    const chain = (pairs: number, innermost: Row, n = 1): Pipeline => {
      if (pairs === 0) return [{ $match: innermost }];
      const a = `__rf${n}`;
      const b = `__rf${n + 1}`;
      return [toArticles([toAuthor(chain(pairs - 1, innermost, n + 2), b), { $match: some(b) }], a), { $match: { $or: [some(a), { name: 'Seven' }] } }];
    };
    for (const pairs of [0, 1, 2, 3]) {
      for (const innermost of [{ name: 'Ann' }, { name: 'nobody' }, { name: { $in: ['Bob', 'Missing'] } }, {}]) {
        const top = toAuthor(chain(pairs, innermost, 2), '__rf1');
        await expectMingo([{ $match: { _status: 'published' } }, top, { $match: some('__rf1') }, { $unset: ['__rf1'] }]);
        await expectMingo([{ $match: { _status: 'published' } }, top, { $match: { $or: [{ __rf1: { $size: 0 } }, { views: { $gt: 1 } }] } }, { $unset: ['__rf1'] }]);
        // Through an array of documents (a component path): the rows are tested one by one (keptBySemiJoins).
        await expectMingo([toAuthor(chain(pairs, innermost, 2), '__rf1', 'blocks.author'), { $match: some('__rf1') }, { $unset: ['__rf1'] }]);
        // Inside a populate's sub-pipeline (semi-join-lookup), with the rows the tail keeps.
        await expectMingo([{ $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [toArticles([toAuthor(chain(pairs, innermost, 3), '__rf2'), { $match: some('__rf2') }], '__rf1'), { $match: some('__rf1') }, { $unset: ['__rf1'] }], as: 'author' } }]);
      }
    }
    // Shapes a semi-join must not take: a $limit before a $match in a nested level, a $project that is not valid.
    const early = toArticles([{ $limit: 1 }, { $match: { title: 'B' } }], '__rf2');
    await expectMingo([toAuthor([early, { $match: some('__rf2') }], '__rf1'), { $match: some('__rf1') }, { $unset: ['__rf1'] }]);
    const badProject = { $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [{ $match: { name: 'Ann' } }, { $limit: 1 }, { $project: {} }], as: '__rf1' } };
    await expectMingo([badProject, { $match: some('__rf1') }, { $unset: ['__rf1'] }]);
  });

  it('relation filter: a lookup with let variables runs on every row', async () => {
    await expectMingo([
      { $match: { _status: 'published' } },
      { $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', let: { t: '$title' }, pipeline: [{ $match: { $expr: { $eq: ['$name', '$$t'] } } }, { $limit: 1 }], as: '__rf1' } },
      { $match: none },
      { $unset: ['__rf1'] },
    ]);
  });

  it('cached relation-filter results and sorted pages follow writes to either collection', async () => {
    const pipeline: Pipeline = [...relationFilter('author', { name: { $in: ['Ann', 'Bob'] } }, some), { $sort: { title: -1, id: 1 } }, page(0, 1)];
    await expectMingo(pipeline);
    await expectMingo(pipeline);
    await engine.updateMany('authors', { name: 'Ann' }, { $set: { name: 'Anne' } });
    await expectMingo(pipeline);
    await engine.updateMany('authors', { name: 'Nul' }, { $set: { name: 'Bob', documentId: 'a3' } });
    await expectMingo(pipeline);
    await engine.insertMany('articles', [{ id: 20, documentId: 'd20', _status: 'published', title: 'zz', author: 'a3' }]);
    await expectMingo(pipeline);
    await engine.deleteMany('articles', { id: 20 });
    await expectMingo(pipeline);
  });

  it('correlated lookups on null, missing and array keys, and the order stages, after writes', async () => {
    const byAuthor: Pipeline = [{ $lookup: { from: 'authors', let: { v: '$author' }, pipeline: [{ $match: { $expr: { $eq: ['$documentId', '$$v'] } } }], as: 'a' } }];
    const ordered: Pipeline = [{
      $lookup: {
        from: 'authors', let: { ids: { $ifNull: ['$cats', []] } },
        pipeline: [
          { $match: { $expr: { $in: ['$documentId', '$$ids'] } } },
          { $addFields: { __o1: { $indexOfArray: ['$$ids', '$documentId'] } } }, { $sort: { __o1: 1, id: 1 } }, { $unset: ['__o1'] },
        ],
        as: 'c',
      },
    }];
    await expectMingo(byAuthor);
    await expectMingo(ordered);
    await engine.insertMany('authors', [{ id: 6, documentId: 'c1', name: 'C', __o1: 'kept?' }, { id: 7, documentId: 'c2' }, { id: 0, documentId: 'c1' }]);
    await engine.updateMany('authors', { id: 1 }, { $set: { documentId: null } });
    await engine.updateMany('authors', { id: 3 }, { $set: { documentId: 'a1' } });
    await engine.deleteMany('authors', { id: 5 });
    await expectMingo(byAuthor);
    await expectMingo(ordered);
  });

  it('sees every write: cached match results and sort plans are dropped', async () => {
    const pipeline = [{ $match: { _status: 'published', locale: 'en' } }, { $sort: { id: 1 } }, page(0, 10)];
    await expectMingo(pipeline);
    await engine.insertMany('articles', [{ id: 0, documentId: 'd0', _status: 'published', locale: 'en' }]);
    await expectMingo(pipeline);
    await engine.updateMany('articles', { id: 3 }, { $set: { locale: 'fr' } });
    await expectMingo(pipeline);
    await engine.deleteMany('articles', { id: 1 });
    await expectMingo(pipeline);
    await engine.transaction(async () => {
      await engine.insertMany('articles', [{ id: 8, documentId: 'd8', _status: 'published', locale: 'en' }]);
      await expectMingo(pipeline);
    });
    await expectMingo(pipeline);
    const failing = engine.transaction(async () => {
      await engine.deleteMany('articles', {});
      await expectMingo(pipeline);
      throw new Error('rollback');
    });
    await expect(failing).rejects.toThrow('rollback');
    const rows = await expectMingo(pipeline);
    expect((rows[0]!.data as Row[]).length).toBeGreaterThan(0);
  });

  it.each<[string, Pipeline]>([
    ['$unwind of arrays, a scalar, null, missing and []', [{ $sort: { id: 1 } }, { $unwind: '$tags' }, { $project: { id: 1, tags: 1 } }]],
    ['$unwind with includeArrayIndex (null for a scalar)', [{ $sort: { id: 1 } }, { $unwind: { path: '$cats', includeArrayIndex: 'at' } }, { $project: { _id: 0, id: 1, cats: 1, at: 1 } }]],
    ['$project of an array of fields, a missing one null', [{ $sort: { id: 1 } }, { $project: { _id: 0, p: '$id', j: ['$tags', '$nope', '$author'] } }]],
    ['lookups, unwinds, then a $limit: the first rows only', [
      { $sort: { id: 1 } },
      { $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [{ $project: { id: 1 } }], as: '__j0' } },
      { $lookup: { from: 'articles', localField: 'cats', foreignField: 'cats', pipeline: [{ $project: { id: 1 } }], as: '__j1' } },
      { $project: { _id: 0, p: '$id', j: ['$__j0', '$__j1'] } },
      { $unwind: { path: '$j', includeArrayIndex: 'n' } },
      { $unwind: '$j' },
      { $limit: 7 },
    ]],
  ])('%s', async (_name, pipeline) => {
    expect((await expectMingo(pipeline)).length).toBeGreaterThan(0);
  });

  it('a $limit after lookups stops joining once it has its rows (limited-stream)', async () => {
    const lookup = { $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [], as: 'a' } };
    const before = { ...lookup.$lookup };
    const pipeline = [{ $sort: { id: 1 } }, lookup, { $unwind: '$a' }, { $limit: 1 }, { $project: { _id: 0, id: 1, a: '$a.name' } }];
    // Article 1 (author null) joins the two authors without a documentId; all six would join six, over a budget of 2.
    expect(await engine.aggregate('articles', pipeline, { maxJoinedRows: 2 })).toEqual([{ id: 1, a: 'Nul' }]);
    await expect(engine.aggregate('articles', [...pipeline.slice(0, 3), { $limit: 6 }], { maxJoinedRows: 2 })).rejects.toThrow('joins more than 2 rows');
    expect(lookup.$lookup).toEqual(before);
  });

  it('results are copies: mutating them changes nothing stored or cached', async () => {
    const pipeline = [{ $match: { _status: 'published' } }, { $sort: { id: 1 } }, page(0, 10)];
    const [first] = await engine.aggregate('articles', pipeline);
    (first!.data as Row[])[0]!.title = 'mutated';
    (first!.data as Row[]).pop();
    await expectMingo(pipeline);
  });
});
