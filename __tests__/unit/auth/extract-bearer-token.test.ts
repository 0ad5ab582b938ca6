import { extractBearerToken } from '../../../lib/auth';

describe('extractBearerToken', () => {
  it.each<[string | undefined, string | null]>([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['Bearer   abc', 'abc'],
    ['Bearer\tabc', 'abc'],
    ['Token abc', null],
    ['Basic dXNlcjpwYXNz', null],
    ['Bearer ', null],
    ['Bearer', null],
    ['Bearer a b', null],
    ['abc', null],
    ['', null],
    [' Bearer abc', null],
    [undefined, null],
  ])('%j -> %j', (header, token) => {
    expect(extractBearerToken(header)).toBe(token);
  });

  it('ignores a repeated header given as an array', () => {
    expect(extractBearerToken(['Bearer a', 'Bearer b'])).toBeNull();
  });
});
