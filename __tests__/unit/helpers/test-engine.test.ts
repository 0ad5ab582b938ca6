import { withDatabase } from '../../helpers/test-engine';

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
