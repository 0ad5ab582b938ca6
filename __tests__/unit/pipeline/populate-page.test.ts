import type { Engine, Row } from '../../../lib/engine';
import { compileFindOne } from '../../../lib/pipeline';
import { createContext } from '../../../lib/pipeline/compile-context';
import { compilePopulate } from '../../../lib/pipeline/compile-populate';
import type { PopulateMap, PopulateNode } from '../../../lib/query/types';
import { article, asc, category, pop, query, registry, run, seededEngine } from './fixtures';

/** Per-parent populate pagination (pipeline/compile-populate-page): the exact stages, then run on the memory engine. */
const A = article.attributes;
let engine: Engine;
beforeAll(async () => {
  engine = await seededEngine();
});

async function one(documentId: string, populate: PopulateMap): Promise<Row> {
  const [row] = await run(engine, article, compileFindOne(registry, article, query(article, { populate }), { documentId }));
  return row!;
}
const ids = (rows: unknown): unknown[] => (rows as Row[]).map((r) => r.id);
const stages = (node: PopulateNode, maxJoinedRows?: number) => compilePopulate(createContext(registry, 'published', 'en', maxJoinedRows), article, { categories: node }, { kind: 'static', locale: 'en' });

describe('populate pages: the stages', () => {
  it('$skip and $limit end the lookup sub-pipeline, after the relation order; the budget $limit only when larger', () => {
    const [lookup] = stages(pop(A, 'categories', { start: 2, limit: 3 }), 1000) as [{ $lookup: { pipeline: Record<string, unknown>[]; localField: string; foreignField: string } }];
    expect(lookup.$lookup).toMatchObject({ localField: 'categories', foreignField: 'documentId' });
    expect(lookup.$lookup.pipeline.slice(-5)).toEqual([
      { $addFields: { __o1: { $indexOfArray: ['$$ids', '$documentId'] } } }, { $sort: { __o1: 1, id: 1 } }, { $unset: ['__o1'] },
      { $skip: 2 }, { $limit: 3 },
    ]);
    const [big] = stages(pop(A, 'categories', { limit: 50 }), 9) as [{ $lookup: { pipeline: unknown[] } }];
    expect(big.$lookup.pipeline.slice(-2)).toEqual([{ $limit: 50 }, { $limit: 10 }]);
    const [none] = stages(pop(A, 'categories', { limit: 0 })) as [{ $lookup: { pipeline: unknown[] } }];
    expect(none.$lookup.pipeline.at(-1)).toEqual({ $match: { id: { $in: [] } } });
  });

  it('withCount: a $count lookup of the same join BEFORE the page lookup, merged into meta', () => {
    const out = stages(pop(A, 'categories', { limit: 1, withCount: true }));
    expect(out).toHaveLength(4);
    expect(out[0]).toEqual({ $lookup: { from: 'categories', localField: 'categories', foreignField: 'documentId', pipeline: [{ $count: 'count' }], as: '__pc1' } });
    expect(out[1]).toEqual({ $addFields: { meta: { $mergeObjects: [{ $ifNull: ['$meta', {}] }, { categories: { $ifNull: [{ $arrayElemAt: ['$__pc1', 0] }, { count: 0 }] } }] } } });
    expect(out[2]).toEqual({ $unset: ['__pc1'] });
    expect((out[3] as { $lookup: { as: string } }).$lookup.as).toBe('categories');
  });
});

describe('populate pages: run on the memory engine', () => {
  it('each parent keeps its own page of its relation order, and its total', async () => {
    expect(ids((await one('a1', { categories: pop(A, 'categories') })).categories)).toEqual([3, 1]);
    expect(ids((await one('a1', { categories: pop(A, 'categories', { limit: 1 }) })).categories)).toEqual([3]);
    expect(ids((await one('a1', { categories: pop(A, 'categories', { start: 1, limit: 5 }) })).categories)).toEqual([1]);
    expect(ids((await one('a1', { categories: pop(A, 'categories', { start: 1, sort: [asc('name')] }) })).categories)).toEqual([3]);
    const counted = await one('a1', { categories: pop(A, 'categories', { limit: 0, withCount: true }) });
    expect([counted.categories, counted.meta]).toEqual([[], { categories: { count: 2 } }]);
    const empty = await one('a3', { categories: pop(A, 'categories', { limit: 1, withCount: true }) });
    expect([empty.categories, empty.meta]).toEqual([[], { categories: { count: 0 } }]);
  });

  it('the mappedBy side and the totals of two relations on one row', async () => {
    const [row] = await run(engine, category, compileFindOne(registry, category, query(category, {
      populate: { articles: pop(category.attributes, 'articles', { limit: 1, withCount: true }), children: pop(category.attributes, 'children', { withCount: true }) },
    }), { id: 1 }));
    const all = await run(engine, category, compileFindOne(registry, category, query(category, { populate: { articles: pop(category.attributes, 'articles') } }), { id: 1 }));
    const articles = all[0]!.articles as Row[];
    expect(ids(row!.articles)).toEqual(ids(articles).slice(0, 1));
    expect(row!.meta).toEqual({ articles: { count: articles.length }, children: { count: (row!.children as Row[]).length } });
  });
});
