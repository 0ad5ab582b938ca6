import { parse, parseError } from './parse-helper';

const pagination = (raw: string): unknown => parse(raw).pagination;

describe('parsePagination', () => {
  it.each([
    ['', { kind: 'page', page: 1, pageSize: 25, withCount: true }],
    ['pagination[page]=3', { kind: 'page', page: 3, pageSize: 25, withCount: true }],
    ['pagination[page]=2&pagination[pageSize]=10', { kind: 'page', page: 2, pageSize: 10, withCount: true }],
    ['pagination[pageSize]=7', { kind: 'page', page: 1, pageSize: 7, withCount: true }],
    ['pagination[page]=-1', { kind: 'page', page: 1, pageSize: 25, withCount: true }],
    ['pagination[page]=0', { kind: 'page', page: 1, pageSize: 25, withCount: true }],
    ['pagination[pageSize]=0', { kind: 'page', page: 1, pageSize: 1, withCount: true }],
    ['pagination[pageSize]=500', { kind: 'page', page: 1, pageSize: 100, withCount: true }],
    ['pagination[page]=3&pagination[pageSize]=500', { kind: 'page', page: 3, pageSize: 100, withCount: true }],
    ['pagination[pageSize]=100&pagination[pageSize]=5', { kind: 'page', page: 1, pageSize: 100, withCount: true }],
    ['pagination[withCount]=false', { kind: 'page', page: 1, pageSize: 25, withCount: false }],
    ['pagination[withCount]=t', { kind: 'page', page: 1, pageSize: 25, withCount: true }],
    ['pagination[start]=5&pagination[limit]=4', { kind: 'offset', start: 5, limit: 4, withCount: true }],
    ['pagination[limit]=3', { kind: 'offset', start: 0, limit: 3, withCount: true }],
    ['pagination[limit]=-1', { kind: 'offset', start: 0, limit: 1, withCount: true }],
    ['pagination[limit]=500', { kind: 'offset', start: 0, limit: 100, withCount: true }],
    ['pagination[start]=-5&pagination[limit]=2', { kind: 'offset', start: 0, limit: 2, withCount: true }],
    ['pagination[start]=10', { kind: 'offset', start: 10, limit: 25, withCount: true }],
    ['pagination[limit]=5&pagination[withCount]=0', { kind: 'offset', start: 0, limit: 5, withCount: false }],
    ['pagination=5', { kind: 'page', page: 1, pageSize: 25, withCount: true }],
  ])('%s', (raw, expected) => {
    expect(pagination(raw)).toEqual(expected);
  });

  const validation = (message: string): unknown => ({ name: 'ValidationError', message, details: {} });
  const paginationError = (message: string): unknown => ({ name: 'PaginationError', message, details: {} });

  it.each([
    ['pagination[page]=abc', validation('convertStartQueryParams expected a positive integer got NaN')],
    ['pagination[pageSize]=abc', validation('convertStartQueryParams expected a positive integer got NaN')],
    ['pagination[page]=1.5', validation('convertStartQueryParams expected a positive integer got 12.5')],
    ['pagination[start]=abc', validation('convertStartQueryParams expected a positive integer got NaN')],
    ['pagination[limit]=abc', validation('convertLimitQueryParams expected a positive integer got NaN')],
    ['pagination[page][x]=1', validation('convertStartQueryParams expected a positive integer got NaN')],
    ['pagination[withCount]=maybe', validation('Invalid withCount parameter. Expected "t","1","true","false","0","f"')],
    ['pagination[page]=1&pagination[limit]=5', paginationError('Cannot use both page & offset pagination in the same query')],
    ['page=2', paginationError('Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object')],
    ['pageSize=2', paginationError('Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object')],
    ['limit=2', paginationError('Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object')],
  ])('%s is refused', (raw, expected) => {
    expect(parseError(raw)).toEqual(expected);
  });

  it('is not read for findOne and writes', () => {
    expect(parse('pagination[page]=abc', { action: 'findOne' }).pagination).toEqual({ kind: 'page', page: 1, pageSize: 25, withCount: true });
    expect(parse('page=2', { action: 'write' }).pagination).toMatchObject({ kind: 'page', page: 1 });
  });
});
