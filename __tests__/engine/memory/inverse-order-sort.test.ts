import { memoryEngine, type Pipeline, type Row } from '../../../lib/engine';
import { planInverseOrderSort } from '../../../lib/engine/memory/execution/fast-paths/inverse-order-sort';
import { aggregateVariants } from '../../../lib/engine/memory/memory-engine';
import type { CompileContext } from '../../../lib/pipeline/compile-context';
import { inverseOrderStages } from '../../../lib/pipeline/inverse-order-stages';
import { differences, FAST_PATH_VARIANTS } from '../../helpers/fast-path-check';

/**
 * The memory engine's sort for the kept order of a to-many `mappedBy` side (fast-paths/inverse-order-sort, run by
 * batched-lookup) gives the general path's answer (mingo with the manual's semantics), hostile stored values
 * included: those it cannot decide exactly go to the general path.
 */
const ctx = { next: (prefix: string) => `${prefix}1` } as unknown as CompileContext;
const order = inverseOrderStages(ctx, { field: 'tags', toMany: true });
const lookup = (pipeline: Pipeline = []): Pipeline => [
  { $sort: { id: 1 } },
  { $lookup: { from: 'posts', localField: 'documentId', foreignField: 'tags', let: order.let, pipeline: [...order.stages, { $unset: order.temps }, ...pipeline, { $project: { _id: 0, id: 1 } }], as: 'j' } },
  { $project: { _id: 0, id: 1, j: 1 } },
];

async function answers(posts: Row[], tags: Row[]): Promise<{ ids: unknown[][] | string; off: string[][] }> {
  const engine = memoryEngine({ ephemeral: true });
  await engine.insertMany('posts', posts);
  await engine.insertMany('tags', tags);
  const pipeline = lookup();
  const results = await aggregateVariants(engine, 'tags', pipeline, {}, FAST_PATH_VARIANTS);
  await engine.close();
  const first = results[0]!;
  const off = differences('tags', pipeline, FAST_PATH_VARIANTS, results).map((d) => [...d.off]);
  return { ids: first instanceof Error ? first.message : first.map((r) => (r.j as Row[]).map((x) => x.id)), off };
}

describe('memory engine: the kept order of a to-many mappedBy side', () => {
  it('the compiler\'s stages are the shape the fast path takes (and nothing else is)', () => {
    const refs = new Map([['owner', { field: 'documentId', orEmpty: false }]]);
    const stages = [...order.stages, { $unset: order.temps }];
    expect(planInverseOrderSort(stages, 0, refs)?.stages).toBe(3);
    expect(planInverseOrderSort(stages, 0, new Map())).toBeNull();
    expect(planInverseOrderSort([stages[0]!, { $sort: { __io1: -1, id: 1 } }, stages[2]!], 0, refs)).toBeNull();
    expect(planInverseOrderSort([{ $addFields: { __io1: { $max: '$x' } } }, stages[1]!, stages[2]!], 0, refs)).toBeNull();
  });

  it('positions for the source document, none first by id, ties by id', async () => {
    const posts = [
      { id: 1, tags: ['x', 'y'], _inverseOrder: { tags: [{ d: 'x', n: 3 }, { d: 'y', n: 1 }] } },
      { id: 2, tags: ['x'], _inverseOrder: { tags: [{ d: 'y', n: 0 }] } },
      { id: 3, tags: ['y', 'x'], _inverseOrder: { tags: [{ d: 'x', n: 1 }, { d: 'x', n: 7 }, { d: 'y', n: 5 }] } },
      { id: 4, tags: ['x'] },
      { id: 5, tags: ['x'], _inverseOrder: { tags: [{ d: 'x', n: 3 }] } },
      { id: 6, tags: ['x', 'y'], _inverseOrder: null },
    ];
    const got = await answers(posts, [{ id: 1, documentId: 'x' }, { id: 2, documentId: 'y' }, { id: 3, documentId: 'z' }]);
    expect(got).toEqual({ ids: [[2, 4, 6, 1, 5, 3], [6, 1, 3], []], off: [] });
  });

  it('stored values only the general path decides: the same answers', async () => {
    const posts = [
      { id: 1, tags: ['x'], _inverseOrder: { tags: [{ d: 'x', n: 'a' }] } },
      { id: 2, tags: ['x'], _inverseOrder: { tags: [{ d: 'x', n: null }, { d: 'x' }, 'x', [{ d: 'x', n: 1 }]] } },
      { id: 3, tags: ['x'], _inverseOrder: [{ tags: [{ d: 'x', n: 2 }] }] },
      { id: 4, tags: ['x'], _inverseOrder: { tags: [{ d: ['x'], n: 0 }, { d: 'x', n: -1 }] } },
      { id: 'five', tags: ['x'], _inverseOrder: { tags: [{ d: 'x', n: 9 }] } },
      { id: 6, tags: [7], _inverseOrder: { tags: [{ d: 7, n: 1 }] } },
    ];
    const got = await answers(posts, [{ id: 1, documentId: 'x' }, { id: 2, documentId: 7 }, { id: 3 }]);
    expect(got.off).toEqual([]);
    expect(Array.isArray(got.ids)).toBe(true);
  });

  it('a stored value that is not an array is the manual\'s error ($filter needs an array), with every fast path on or off', async () => {
    const got = await answers([{ id: 1, tags: ['y'], _inverseOrder: { tags: { d: 'y', n: 1 } } }], [{ id: 1, documentId: 'y' }]);
    expect(got).toEqual({ ids: expect.stringContaining('$filter') as unknown, off: [] });
  });
});
