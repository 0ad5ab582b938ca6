import { memoryEngine, type Engine, type Pipeline, type Row } from '../../../lib/engine';
import { relationFilter } from '../../../lib/engine/memory/execution/fast-paths/relation-filter';
import { aggregateVariants } from '../../../lib/engine/memory/memory-engine';
import { deepFreeze } from '../../../lib/util/frozen';
import { differences, FAST_PATH_VARIANTS } from '../../helpers/fast-path-check';

/**
 * The planner keeps the plan of a position of a pipeline that is not frozen when the stages from there on are
 * frozen objects (a findOne's populate and projection, compiled once per query while its first `$match` names the
 * document): planned once for those very stages, and the answers stay the general path's.
 */
describe('positions planned once for the frozen stages of pipelines that are not frozen', () => {
  let engine: Engine;

  beforeEach(async () => {
    engine = memoryEngine({ ephemeral: true });
    await engine.insertMany('articles', [
      { id: 1, documentId: 'd1', _status: 'published', title: 'a', author: 'a1' },
      { id: 2, documentId: 'd2', _status: 'published', title: 'b', author: 'a2' },
      { id: 3, documentId: 'd3', _status: 'published', title: 'c', author: null },
    ]);
    await engine.insertMany('authors', [
      { id: 1, documentId: 'a1', name: 'Ann' },
      { id: 2, documentId: 'a2', name: 'Bob' },
    ]);
  });
  afterEach(() => engine.close());

  /** pipeline/compile-filters' relation filter (author.name starts with A), then a populate of the author. */
  const suffix = (): Pipeline =>
    deepFreeze([
      { $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [{ $match: { name: { $regex: '^A' } } }, { $limit: 1 }], as: '__rf1' } },
      { $match: { $nor: [{ __rf1: { $size: 0 } }] } },
      { $unset: ['__rf1'] },
      { $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [{ $project: { _id: 0, name: 1 } }], as: 'author' } },
    ]) as Pipeline;

  async function expectGeneral(pipeline: Pipeline): Promise<Row[]> {
    const results = await aggregateVariants(engine, 'articles', pipeline, {}, FAST_PATH_VARIANTS);
    expect(differences('articles', pipeline, FAST_PATH_VARIANTS, results)).toEqual([]);
    return engine.aggregate('articles', pipeline);
  }

  it('asks the pipeline paths once for the same frozen stages, whatever the first $match', async () => {
    const stages = suffix();
    const accepts = jest.spyOn(relationFilter, 'accepts');
    try {
      const one = await engine.aggregate('articles', [{ $match: { documentId: 'd1' } }, ...stages]);
      const two = await engine.aggregate('articles', [{ $match: { documentId: 'd2' } }, ...stages]);
      const three = await engine.aggregate('articles', [{ $match: { documentId: { $in: ['d1', 'd3'] } } }, ...stages]);
      expect([one, two, three].map((rows) => rows.map(({ _id, ...row }) => row))).toEqual([[{ id: 1, documentId: 'd1', _status: 'published', title: 'a', author: [{ name: 'Ann' }] }], [], [{ id: 1, documentId: 'd1', _status: 'published', title: 'a', author: [{ name: 'Ann' }] }]]);
      // Position 1 (the relation filter) was planned for the first pipeline only; the populate's lookup at
      // position 4 is a stage of its own (no pipeline path accepts it).
      expect(accepts.mock.calls.map(([, at]) => at)).toEqual([1, 4]);
    } finally {
      accepts.mockRestore();
    }
  });

  it('plans again for other stages, at another position, or when a stage is not frozen', async () => {
    const stages = suffix();
    const other = suffix();
    const accepts = jest.spyOn(relationFilter, 'accepts');
    try {
      await engine.aggregate('articles', [{ $match: { documentId: 'd1' } }, ...stages]);
      await engine.aggregate('articles', [{ $match: { documentId: 'd1' } }, ...other]);
      await engine.aggregate('articles', [{ $match: { documentId: 'd1' } }, { $sort: { id: 1 } }, ...stages]);
      await engine.aggregate('articles', [{ $match: { documentId: 'd1' } }, ...stages.slice(0, 3), { $lookup: { ...(stages[3]!.$lookup as Row) } }]);
      expect(accepts.mock.calls.map(([, at]) => at)).toEqual([1, 4, 1, 4, 2, 5, 1, 4]);
    } finally {
      accepts.mockRestore();
    }
  });

  it.each([
    ['d1', { documentId: 'd1' }],
    ['no match', { documentId: 'none' }],
    ['every row', { _status: 'published' }],
  ])('gives the general path\'s answer with kept positions: %s', async (_name, match) => {
    const stages = suffix();
    const first = await expectGeneral([{ $match: match }, ...stages]);
    expect(await expectGeneral([{ $match: { ...match } }, ...stages])).toEqual(first);
  });
});
