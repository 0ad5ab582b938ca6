import { testEngine, withDatabase } from '../../helpers/test-engine';

describe('withDatabase', () => {
  it.each([
    ['mongodb://localhost:27017', 'mongodb://localhost:27017/t'],
    ['mongodb://localhost:27017/', 'mongodb://localhost:27017/t'],
    ['mongodb://localhost:27017/blog?replicaSet=rs0', 'mongodb://localhost:27017/t?replicaSet=rs0'],
    ['mongodb://u:p@a:1,b:2/db?authSource=admin', 'mongodb://u:p@a:1,b:2/t?authSource=admin'],
    ['mongodb+srv://cluster.example.net/?retryWrites=true', 'mongodb+srv://cluster.example.net/t?retryWrites=true'],
  ])('%s -> %s', (uri, expected) => {
    expect(withDatabase(uri, 't')).toBe(expected);
  });

  it('refuses what is not a MongoDB URI', () => {
    expect(() => withDatabase('postgres://x', 't')).toThrow(/MONGODB_URI/);
  });
});

describe('testEngine', () => {
  it('checks every aggregate for index eligibility against the indexes given to init', async () => {
    const engine = testEngine();
    await engine.init([{ name: 'a', indexes: [] }, { name: 'b', indexes: [{ name: 'k', keys: { k: 1 } }] }]);
    const indexed = { $lookup: { from: 'b', localField: 'x', foreignField: 'k', pipeline: [], as: 'j' } };
    await expect(engine.aggregate('a', [indexed])).resolves.toEqual([]);
    const scan = { $lookup: { from: 'b', pipeline: [{ $match: { k: 1 } }], as: 'j' } };
    await expect(engine.aggregate('a', [scan])).rejects.toThrow(/not index-eligible on MongoDB/);
    const unindexed = { $lookup: { from: 'b', localField: 'x', foreignField: 'other', pipeline: [], as: 'j' } };
    await expect(engine.aggregate('a', [unindexed])).rejects.toThrow(/no index of b starts with other/);
    await engine.close();
  });
});
