import { memoryEngine, type Engine, type Pipeline, type Row } from '../../../lib/engine';
import type { StagePath } from '../../../lib/engine/memory/execution/fast-path';
import { batchedLookup } from '../../../lib/engine/memory/execution/fast-paths/batched-lookup';
import { aggregateVariants } from '../../../lib/engine/memory/memory-engine';
import { differences, FAST_PATH_VARIANTS } from '../../helpers/fast-path-check';

/**
 * batched-lookup's inner path batched-tail: the stages after an equality join that are a leading `$limit` and
 * row-wise stages (a nested populate, firstOrNull, a projection) run once on the joined rows of the whole page,
 * not once per input row, with the answer of the row-by-row run: each row its own joined rows, the same join
 * budget error (the first row over the limit and its path, although the page counts the nested rows first).
 */
describe('memory engine: a lookup\'s tail run once per page (batched-tail)', () => {
  let engine: Engine;

  beforeEach(async () => {
    engine = memoryEngine({ ephemeral: true });
    await engine.insertMany('cats', [1, 2].map((id) => ({ id, documentId: `c${id}` })));
    await engine.insertMany('authors', [
      { id: 1, documentId: 'x', cats: [] }, { id: 2, documentId: 'y', cats: [] }, { id: 3, documentId: 'z', cats: ['c1', 'c2'] },
    ]);
    await engine.insertMany('articles', [
      { id: 1, author: 'x' }, { id: 2, author: 'y' }, { id: 3, author: 'z' }, { id: 4, author: 'z' }, { id: 5, author: 'none' },
    ]);
  });
  afterEach(() => engine.close());

  const join = (from: string, localField: string, as: string, pipeline: Pipeline = []): Pipeline[number] => ({ $lookup: { from, localField, foreignField: 'documentId', pipeline, as } });
  const firstOrNull = (field: string): Pipeline[number] => ({ $addFields: { [field]: { $ifNull: [{ $arrayElemAt: [`$${field}`, 0] }, null] } } });
  const nested: Pipeline = [
    { $sort: { id: 1 } },
    join('authors', 'author', 'author', [join('cats', 'cats', 'cats', [{ $project: { _id: 0, id: 1 } }]), { $project: { _id: 0, id: 1, cats: 1 } }]),
    firstOrNull('author'),
    { $project: { _id: 0, id: 1, author: 1 } },
  ];

  it('runs the nested lookup once for the page, not once per article', async () => {
    const calls = { n: 0 };
    const accepts = batchedLookup.accepts;
    (batchedLookup as { accepts: StagePath['accepts'] }).accepts = (stage, cx) => {
      const fn = accepts(stage, cx);
      return fn && ((rows, owned, vars) => {
        calls.n++;
        return fn(rows, owned, vars);
      });
    };
    try {
      const counted = async (off: string[]): Promise<number> => {
        calls.n = 0;
        const [rows] = await aggregateVariants(engine, 'articles', nested, {}, [off]);
        expect(rows).toHaveLength(5);
        return calls.n;
      };
      // The articles' lookup, then its tail's lookup into cats: once for the page, else once per article.
      expect(await counted([])).toBe(2);
      expect(await counted(['batched-tail'])).toBe(6);
    } finally {
      (batchedLookup as { accepts: StagePath['accepts'] }).accepts = accepts;
    }
  });

  it('gives each article its own joined rows, fresh objects even for the same author twice', async () => {
    const rows = await engine.aggregate('articles', nested);
    expect(rows).toEqual([
      { id: 1, author: { id: 1, cats: [] } },
      { id: 2, author: { id: 2, cats: [] } },
      { id: 3, author: { id: 3, cats: [{ id: 1 }, { id: 2 }] } },
      { id: 4, author: { id: 3, cats: [{ id: 1 }, { id: 2 }] } },
      { id: 5, author: null },
    ]);
    expect(rows[2]!.author).not.toBe(rows[3]!.author);
    expect((rows[2]!.author as Row).cats).not.toBe((rows[3]!.author as Row).cats);
    for (const readOnly of [false, true]) {
      const results = await aggregateVariants(engine, 'articles', nested, { readOnly }, FAST_PATH_VARIANTS);
      expect(differences('articles', nested, FAST_PATH_VARIANTS, results)).toEqual([]);
    }
  });

  it('cuts each row\'s joined rows to the tail\'s $limit', async () => {
    const limited: Pipeline = [{ $sort: { id: 1 } }, join('authors', 'author', 'author', [join('cats', 'cats', 'cats', [{ $limit: 1 }, { $project: { _id: 0, id: 1 } }])]), { $project: { _id: 0, id: 1, c: '$author.cats' } }];
    const results = await aggregateVariants(engine, 'articles', limited, {}, FAST_PATH_VARIANTS);
    expect(differences('articles', limited, FAST_PATH_VARIANTS, results)).toEqual([]);
    expect(results[0]).toEqual([{ id: 1, c: [[]] }, { id: 2, c: [[]] }, { id: 3, c: [[{ id: 1 }]] }, { id: 4, c: [[{ id: 1 }]] }, { id: 5, c: [] }]);
  });

  it('stops at the row over the join budget that the row-by-row run names, not at the page\'s own order of counts', async () => {
    // Row by row: articles 1 and 2 count their author (1, 2), article 3 its author's two categories (4) and its
    // author (5), article 4 its author's categories: 7 > 5, path author.cats. Counting the page's nested rows
    // first (2 + 2) would go over at article 2's own author instead (4 + 1 + 1), path author.
    const results = await aggregateVariants(engine, 'articles', nested, { maxJoinedRows: 5 }, [[], ['batched-tail']]);
    expect(results[0]).toMatchObject({ limit: 'joinedRows', max: 5, path: ['author', 'cats'] });
    expect(differences('articles', nested, [[], ['batched-tail']], results)).toEqual([]);
    // 4 authors (article 5 joins none) + 2 x 2 categories = 8 rows: within 8; over 7 at article 4's own author.
    const within = await aggregateVariants(engine, 'articles', nested, { maxJoinedRows: 8 }, [[], ['batched-tail']]);
    expect(within.map((r) => (r as Row[]).length)).toEqual([5, 5]);
    await expect(engine.aggregate('articles', nested, { maxJoinedRows: 7 })).rejects.toMatchObject({ path: ['author'] });
  });

  it('leaves rows it owns unchanged until the page is counted, so the row-by-row run after an error joins them again', async () => {
    // A lookup before makes the rows the page's own (it sets them in place); the author lookup writes into its own
    // localField. Going over at an article's own count must not leave earlier articles with their author replaced.
    const owned: Pipeline = [nested[0]!, join('cats', 'none', 'before'), ...nested.slice(1)];
    const results = await aggregateVariants(engine, 'articles', owned, { maxJoinedRows: 5 }, [[], ['batched-tail']]);
    expect(results[0]).toMatchObject({ limit: 'joinedRows', max: 5, path: ['author', 'cats'] });
    expect(differences('articles', owned, [[], ['batched-tail']], results)).toEqual([]);
  });
});
