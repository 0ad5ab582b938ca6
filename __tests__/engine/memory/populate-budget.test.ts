import { memoryEngine, ReadLimitError, type Engine, type Pipeline } from '../../../lib/engine';

/**
 * The memory engine counts the rows its populate and relation sort lookups join (AggregateOptions.maxJoinedRows),
 * all levels together, and stops at the first row over the limit with a ReadLimitError naming the path: lookups
 * into an attribute, into `__p<N>` (relations inside components: the path is the localField) or `__s<N>` (a
 * relation sort key: `param` 'sort'); relation filter lookups (other temporary fields) are not counted.
 */
describe('memory engine: the populate row budget', () => {
  let engine: Engine;

  beforeEach(async () => {
    engine = memoryEngine();
    await engine.insertMany('cats', [1, 2, 3].map((id) => ({ id, documentId: `c${id}`, articles: ['a1', 'a2', 'a3', 'a4'] })));
    await engine.insertMany('articles', [1, 2, 3, 4].map((id) => ({ id, documentId: `a${id}`, cats: ['c1', 'c2', 'c3'], seo: { image: 'c1' } })));
  });
  afterEach(() => engine.close());

  const lookup = (from: string, localField: string, as: string, pipeline: Pipeline = []): Pipeline[number] => ({ $lookup: { from, localField, foreignField: 'documentId', pipeline, as } });
  const nested: Pipeline = [{ $sort: { id: 1 } }, lookup('cats', 'cats', 'cats', [lookup('articles', 'articles', 'articles')])];

  it('joins everything within the limit: 4 articles x 3 categories x 4 articles + 12 = 60 rows', async () => {
    const rows = await engine.aggregate('articles', nested, { maxJoinedRows: 60 });
    expect(rows).toHaveLength(4);
    expect((rows[3]!.cats as { articles: unknown[] }[])[2]!.articles).toHaveLength(4);
  });

  it('stops one row over it with the populate path of the join that went over', async () => {
    const read = engine.aggregate('articles', nested, { maxJoinedRows: 59 });
    await expect(read).rejects.toBeInstanceOf(ReadLimitError);
    await expect(read).rejects.toMatchObject({ limit: 'joinedRows', max: 59, path: ['cats'] }); // the last article's own 3 categories
    await expect(engine.aggregate('articles', nested, { maxJoinedRows: 3 })).rejects.toMatchObject({ path: ['cats', 'articles'] });
  });

  it('names a join inside a component by its localField, counts relation sort joins, and no other temporary lookup', async () => {
    await expect(engine.aggregate('articles', [lookup('cats', 'seo.image', '__p1')], { maxJoinedRows: 3 })).rejects.toMatchObject({ path: ['seo.image'], param: 'populate' });
    await expect(engine.aggregate('articles', [lookup('cats', 'cats', '__s1')], { maxJoinedRows: 11 })).rejects.toMatchObject({ path: ['cats'], param: 'sort' });
    const temps: Pipeline = [lookup('cats', 'cats', '__rf2'), lookup('cats', 'cats', '__x3'), { $unset: ['__rf2', '__x3'] }];
    await expect(engine.aggregate('articles', temps, { maxJoinedRows: 1 })).resolves.toHaveLength(4);
  });

  it('counts nothing without a limit', async () => {
    await expect(engine.aggregate('articles', nested)).resolves.toHaveLength(4);
  });
});
