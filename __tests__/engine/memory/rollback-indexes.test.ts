import { memoryEngine, type Engine } from '../../../lib/engine';

/**
 * A rolled-back transaction restores the collection by undoing its writes in the indexes (not by rebuilding
 * them): the unique and hash indexes answer exactly as before the transaction.
 */
describe('memory engine: indexes after a rollback', () => {
  let engine: Engine;
  beforeEach(async () => {
    engine = memoryEngine({ ephemeral: true });
    await engine.init([{ name: 'a', indexes: [{ name: 'doc', keys: { documentId: 1 }, unique: true }, { name: 'tag', keys: { tag: 1 } }] }]);
    await engine.insertMany('a', [1, 2, 3].map((id) => ({ id, documentId: `d${id}`, tag: id === 3 ? 'y' : 'x' })));
  });
  afterEach(() => engine.close());

  it('undoes inserts, replacements, updates and deletes in every index', async () => {
    const failing = engine.transaction(async () => {
      await engine.insertMany('a', [{ id: 4, documentId: 'd4', tag: 'x' }]);
      await engine.replaceOne('a', { documentId: 'd1' }, { id: 1, documentId: 'd1', tag: 'z' });
      await engine.updateMany('a', { documentId: 'd3' }, { $set: { tag: 'x' } });
      await engine.deleteMany('a', { documentId: 'd2' });
      throw new Error('rolled back');
    });
    await expect(failing).rejects.toThrow('rolled back');
    const lookup = [{ $match: { documentId: 'd1' } }, { $lookup: { from: 'a', localField: 'tag', foreignField: 'tag', pipeline: [{ $project: { _id: 0, id: 1 } }], as: 'same' } }];
    expect((await engine.aggregate('a', lookup))[0]!.same).toEqual([{ id: 1 }, { id: 2 }]);
    expect((await engine.find('a', { documentId: { $in: ['d1', 'd2', 'd3', 'd4'] } })).map((r) => [r.id, r.tag])).toEqual([[1, 'x'], [2, 'x'], [3, 'y']]);
    await engine.insertMany('a', [{ id: 4, documentId: 'd4', tag: 'z' }]); // the rolled-back key is free again
    await expect(engine.insertMany('a', [{ id: 5, documentId: 'd2' }])).rejects.toMatchObject({ name: 'DuplicateKeyError' });
    expect((await engine.find('a', { tag: 'z' })).map((r) => r.id)).toEqual([4]);
  });
});
