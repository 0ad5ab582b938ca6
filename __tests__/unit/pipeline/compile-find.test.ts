import type { Engine, Pipeline, Row } from '../../../lib/engine';
import { indexesFor } from '../../../lib/engine/indexes';
import { compileFind, compileFindOne, PIPELINE_OPERATORS } from '../../../lib/pipeline';
import type { FilterNode, Query } from '../../../lib/query/types';
import { indexViolations } from '../../helpers/index-eligibility';
import { article, asc, author, category, desc, pop, query, registry, runPage, seededEngine, through, where } from './fixtures';

const A = article.attributes;

let engine: Engine;
beforeAll(async () => {
  engine = await seededEngine();
});

async function titles(q: Query): Promise<{ titles: unknown[]; page: { data: Row[]; total: number | undefined } }> {
  const page = await runPage(engine, article, q, compileFind(registry, article, q));
  return { titles: page.data.map((r) => r.title), page };
}

/** Every `$name` used as a key anywhere in the pipeline. */
function operatorsOf(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => operatorsOf(v, found));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.startsWith('$')) found.add(k);
      operatorsOf(v, found);
    }
  }
  return found;
}

describe('compileFind: exact pipelines', () => {
  it('scope, filter, sort with id tie-breaker, numbered page rows, the total through $unionWith', () => {
    const q = query(article, { filters: where(A, 'title', '$eq', 'Alpha'), sort: [desc('views')], fields: ['title'], pagination: { kind: 'page', page: 3, pageSize: 10, withCount: true } });
    const pipeline = compileFind(registry, article, q);
    expect(pipeline).toEqual([
      { $match: { _status: 'published', locale: 'en', title: { $eq: 'Alpha' } } },
      { $sort: { views: -1, id: 1 } },
      { $skip: 20 },
      { $limit: 10 },
      { $setWindowFields: { sortBy: { views: -1, id: 1 }, output: { __pos: { $documentNumber: {} } } } },
      { $project: { id: 1, documentId: 1, locale: 1, _status: 1, publishedAt: 1, title: 1, __pos: 1 } },
      { $unionWith: { coll: 'articles', pipeline: [{ $match: { _status: 'published', locale: 'en', title: { $eq: 'Alpha' } } }, { $count: '__total' }] } },
    ]);
    // The count runs through the very same match stage objects (the memory engine reuses their row count).
    expect((pipeline[6]!.$unionWith as { pipeline: object[] }).pipeline[0]).toBe(pipeline[0]);
  });

  it('relation filter: a correlated localField/foreignField lookup of at most one row, tested by $size', () => {
    const q = query(article, { filters: through(article, 'author', where(author.attributes, 'name', '$eq', 'Ann')), pagination: { kind: 'offset', start: 5, limit: 10, withCount: false } });
    expect(compileFind(registry, article, q)).toEqual([
      { $match: { _status: 'published', locale: 'en' } },
      { $lookup: {
        from: 'authors', localField: 'author', foreignField: 'documentId',
        pipeline: [{ $match: { name: { $eq: 'Ann' } } }, { $limit: 1 }, { $project: { _id: 1 } }], as: '__rf1',
      } },
      { $match: { $nor: [{ __rf1: { $size: 0 } }] } },
      { $unset: ['__rf1'] },
      { $sort: { id: 1 } },
      { $skip: 5 },
      { $limit: 10 },
      { $setWindowFields: { sortBy: { id: 1 }, output: { __pos: { $documentNumber: {} } } } },
    ]);
    const counted = compileFind(registry, article, { ...q, pagination: { ...q.pagination, withCount: true } });
    expect(counted.at(-1)).toEqual({ $unionWith: { coll: 'articles', pipeline: [...counted.slice(0, 4), { $count: '__total' }] } });
  });

  const C = category.attributes;
  const F = registry.contentType('plugin::upload.file').attributes;
  /** The stages after the scope `$match` up to the `$unset` of the relation filters' temp fields. */
  const filterStages = (filters: FilterNode): Pipeline => {
    const stages = compileFind(registry, article, query(article, { filters }));
    return stages.slice(1, stages.findIndex((s) => '$unset' in s) + 1);
  };
  it.each<[string, () => FilterNode, Pipeline]>([
    ['to-many, "no related row": no target $match beyond the scope (none here)',
      () => through(article, 'categories', where(C, 'id', '$null', true)),
      [
        { $lookup: { from: 'categories', localField: 'categories', foreignField: 'documentId', pipeline: [{ $limit: 1 }, { $project: { _id: 1 } }], as: '__rf1' } },
        { $match: { __rf1: { $size: 0 } } },
      ]],
    ['media: joined on the file id',
      () => through(article, 'cover', where(F, 'name', '$eq', 'b.png')),
      [
        { $lookup: { from: 'files', localField: 'cover', foreignField: 'id', pipeline: [{ $match: { name: { $eq: 'b.png' } } }, { $limit: 1 }, { $project: { _id: 1 } }], as: '__rf1' } },
        { $match: { $nor: [{ __rf1: { $size: 0 } }] } },
      ]],
    ['media inside a component: the dotted path is the localField',
      () => ({ type: 'component', field: 'seo', attribute: A.seo, where: through(registry.component('shared.seo') as never, 'shareImage', where(F, 'name', '$eq', 'b.png')) }) as FilterNode,
      [
        { $lookup: { from: 'files', localField: 'seo.shareImage', foreignField: 'id', pipeline: [{ $match: { name: { $eq: 'b.png' } } }, { $limit: 1 }, { $project: { _id: 1 } }], as: '__rf1' } },
        { $match: { $nor: [{ __rf1: { $size: 0 } }] } },
      ]],
    ['nested, through a mappedBy side (documentId against the owning field, every locale), $not of it',
      () => ({ type: 'not', child: through(article, 'author', through(author, 'articles', where(A, 'title', '$eq', 'x'))) }),
      [
        { $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [
          { $lookup: { from: 'articles', localField: 'documentId', foreignField: 'author', pipeline: [{ $match: { _status: 'published' } }, { $match: { title: { $eq: 'x' } } }, { $limit: 1 }, { $project: { _id: 1 } }], as: '__rf2' } },
          { $match: { $nor: [{ __rf2: { $size: 0 } }] } },
          { $limit: 1 }, { $project: { _id: 1 } },
        ], as: '__rf1' } },
        { $match: { __rf1: { $size: 0 } } },
      ]],
  ])('relation filter shape: %s', (_name, filters, expected) => {
    const stages = filterStages(filters());
    expect(stages.slice(0, -1)).toEqual(expected);
    expect(stages[stages.length - 1]).toEqual({ $unset: expected.filter((s) => s.$lookup).map((s) => (s.$lookup as Row).as) });
    // Every join is an index seek on MongoDB: localField/foreignField, the foreign field leading a declared index.
    const declared = new Map(indexesFor(registry).map((c) => [c.name, c.indexes]));
    expect(indexViolations('articles', stages, declared)).toEqual([]);
  });

  it('findOne: relations join with localField/foreignField, relation order from the stored array', () => {
    const q = query(article, { populate: { author: pop(A, 'author'), categories: pop(A, 'categories') } });
    expect(compileFindOne(registry, article, q, { documentId: 'a1' })).toEqual([
      { $match: { _status: 'published', locale: 'en', documentId: 'a1' } },
      { $sort: { id: 1 } },
      { $limit: 1 },
      { $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [], as: 'author' } },
      { $addFields: { author: { $ifNull: [{ $arrayElemAt: ['$author', 0] }, null] } } },
      { $lookup: { from: 'categories', localField: 'categories', foreignField: 'documentId', let: { ids: '$categories' }, pipeline: [
        { $addFields: { __o1: { $indexOfArray: ['$$ids', '$documentId'] } } },
        { $sort: { __o1: 1, id: 1 } },
        { $unset: ['__o1'] },
      ], as: 'categories' } },
    ]);
  });

  it('mappedBy populate joins documentId to the owning field, published rows in their kept order (a to-one owner: its number)', () => {
    const q = query(author, { populate: { articles: pop(author.attributes, 'articles') } });
    const lookup = compileFindOne(registry, author, q, { documentId: 'ann' })[3];
    expect(lookup).toEqual({
      $lookup: { from: 'articles', localField: 'documentId', foreignField: 'author', pipeline: [{ $match: { _status: 'published' } }, { $sort: { '_inverseOrder.author': 1, id: 1 } }], as: 'articles' },
    });
  });

  it('mappedBy populate of a to-many owner: the position of its entry for the source document ($$owner)', () => {
    const C = registry.contentType('api::category.category');
    const q = query(C, { populate: { articles: pop(C.attributes, 'articles') } });
    const lookup = compileFindOne(registry, C, q, { documentId: 'news' }).find((s) => '$lookup' in s);
    expect(lookup).toEqual({ $lookup: { from: 'articles', localField: 'documentId', foreignField: 'categories', let: { owner: '$documentId' }, pipeline: [
      { $match: { _status: 'published' } },
      { $addFields: { __io1: { $max: { $map: { input: { $filter: { input: '$_inverseOrder.categories', cond: { $eq: ['$$this.d', '$$owner'] } } }, in: '$$this.n' } } } } },
      { $sort: { __io1: 1, id: 1 } },
      { $unset: ['__io1'] },
    ], as: 'articles' } });
  });

  it('localizations: documentId to documentId, same status, other locale', () => {
    const q = query(article, { populate: { localizations: pop(A, 'localizations') } });
    expect(compileFindOne(registry, article, q, { documentId: 'a1' })[3]).toEqual({ $lookup: {
      from: 'articles', localField: 'documentId', foreignField: 'documentId', let: { loc: '$locale' },
      pipeline: [{ $match: { _status: 'published' } }, { $match: { $expr: { $ne: ['$locale', '$$loc'] } } }, { $sort: { id: 1 } }],
      as: 'localizations',
    } });
  });

  it('media inside components: one lookup on the dotted path of every item', () => {
    const seo = registry.component('shared.seo').attributes;
    const q = query(article, { populate: { seo: pop(A, 'seo', { populate: { shareImage: pop(seo, 'shareImage') } }) } });
    expect(compileFindOne(registry, article, q, { documentId: 'a1' })[3]).toEqual({ $lookup: { from: 'files', localField: 'seo.shareImage', foreignField: 'id', pipeline: [], as: '__p1' } });
    const slider = registry.component('shared.slider').attributes;
    const dz = query(article, { populate: { blocks: { ...pop(A, 'blocks'), on: { 'shared.slider': { ...pop(slider, 'files'), attribute: A.blocks as never, populate: { files: pop(slider, 'files') } } } } } });
    expect(compileFindOne(registry, article, dz, { documentId: 'a1' })[3]).toEqual({ $lookup: { from: 'files', localField: 'blocks.files', foreignField: 'id', pipeline: [], as: '__p3' } });
  });

  it('relation sort: the same join, $limit 1 on an owning to-one, only the key projected', () => {
    const q = query(article, { sort: [asc('author', 'name')] });
    expect(compileFind(registry, article, q).slice(1, 3)).toEqual([
      { $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [{ $limit: 1 }, { $project: { _id: 0, k: '$name' } }], as: '__s1' } },
      { $addFields: { __sk1: { $min: '$__s1.k' } } },
    ]);
    const many = query(article, { sort: [desc('categories', 'name')] });
    expect(compileFind(registry, article, many)[1]).toEqual({ $lookup: { from: 'categories', localField: 'categories', foreignField: 'documentId', pipeline: [{ $project: { _id: 0, k: '$name' } }], as: '__s1' } });
  });

  it('emits only the operators of PIPELINE_OPERATORS', () => {
    const C = registry.contentType('api::category.category').attributes;
    const q = query(article, {
      filters: { type: 'and', children: [through(article, 'categories', through(registry.contentType('api::category.category'), 'articles', where(A, 'title', '$notContains', 'x'))), where(A, 'content', '$containsi', 'y'), where(A, 'views', '$between', [1, 2])] },
      sort: [asc('author', 'name')],
      populate: { categories: pop(A, 'categories', { count: true }), seo: pop(A, 'seo', { populate: { shareImage: pop(registry.component('shared.seo').attributes, 'shareImage') } }), blocks: pop(A, 'blocks'), localizations: pop(A, 'localizations'), author: pop(A, 'author', { populate: { articles: pop(author.attributes, 'articles', { sort: [asc('title')] }) } }) },
      locale: '*',
    });
    const used = operatorsOf([compileFind(registry, article, q), compileFindOne(registry, registry.contentType('api::category.category'), query(registry.contentType('api::category.category'), { populate: { children: pop(C, 'children') } }), {})] as Pipeline[]);
    const known = new Set<string>([...PIPELINE_OPERATORS.stage, ...PIPELINE_OPERATORS.query, ...PIPELINE_OPERATORS.expression, ...PIPELINE_OPERATORS.window]);
    expect([...used].filter((op) => !known.has(op))).toEqual([]);
  });
});

describe('compileFind: sort and pagination (run on the memory engine)', () => {
  it.each([
    ['default: by id', [], ['Alpha', 'beta 50%', 'Gamma_x']],
    ['scalar desc', [desc('views')], ['Gamma_x', 'beta 50%', 'Alpha']],
    ['nulls first ascending', [asc('rating')], ['beta 50%', 'Gamma_x', 'Alpha']],
    ['nulls last descending', [desc('rating')], ['Alpha', 'Gamma_x', 'beta 50%']],
    ['relation path, no related row first', [asc('author', 'name')], ['Gamma_x', 'Alpha', 'beta 50%']],
    ['relation path desc', [desc('author', 'name')], ['beta 50%', 'Alpha', 'Gamma_x']],
    ['to-many relation path', [asc('categories', 'name')], ['Gamma_x', 'beta 50%', 'Alpha']],
    ['component path', [desc('seo', 'metaTitle')], ['Alpha', 'beta 50%', 'Gamma_x']],
  ] as const)('%s', async (_name, sort, expected) => {
    expect((await titles(query(article, { sort: [...sort] }))).titles).toEqual(expected);
  });

  it('page pagination skips (page - 1) * pageSize and counts', async () => {
    const { titles: t, page } = await titles(query(article, { pagination: { kind: 'page', page: 2, pageSize: 1, withCount: true } }));
    expect(t).toEqual(['beta 50%']);
    expect(page.total).toBe(3);
  });

  it('offset pagination uses start/limit; withCount false has no total', async () => {
    const { titles: t, page } = await titles(query(article, { pagination: { kind: 'offset', start: 1, limit: 5, withCount: false } }));
    expect(t).toEqual(['beta 50%', 'Gamma_x']);
    expect(page.total).toBeUndefined();
  });

  it('an empty result: no row, no total document ($count outputs nothing, as on MongoDB), a total of 0', async () => {
    const q = query(article, { filters: where(A, 'views', '$gt', 1000) });
    expect(await engine.aggregate('articles', compileFind(registry, article, q))).toEqual([]);
    const { page } = await titles(q);
    expect(page).toEqual({ data: [], total: 0 });
  });

  it('a page past the end: no row, the total still counted', async () => {
    const { page } = await titles(query(article, { pagination: { kind: 'offset', start: 50, limit: 5, withCount: true } }));
    expect(page).toEqual({ data: [], total: 3 });
  });

  it('each page row is its own document numbered by __pos; the total is one more document', async () => {
    const q = query(article, { sort: [desc('views')], pagination: { kind: 'offset', start: 1, limit: 2, withCount: true } });
    const docs = await engine.aggregate('articles', compileFind(registry, article, q));
    expect(docs.map((d) => [d.title, d.__pos, d.__total])).toEqual([['beta 50%', 1, undefined], ['Alpha', 2, undefined], [undefined, undefined, 3]]);
  });

  it('options.match narrows the scope without overwriting a filter on the same key', async () => {
    const q = query(article, { filters: where(A, 'documentId', '$in', ['a1', 'a2']) });
    const page = await runPage(engine, article, q, compileFind(registry, article, q, { match: { documentId: 'a2' } }));
    expect(page.data.map((r) => r.title)).toEqual(['beta 50%']);
  });

  it('locale=* lists every locale; status=draft the drafts', async () => {
    expect((await titles(query(article, { locale: '*' }))).titles).toEqual(['Alpha', 'Alpha fr', 'beta 50%', 'Gamma_x']);
    expect((await titles(query(article, { status: 'draft' }))).titles).toEqual(['Alpha draft', 'Delta']);
  });
});
