import { invalidKey, parse, parseError } from './parse-helper';

const ORDER = { name: 'ValidationError', message: 'Invalid order. order can only be one of asc|desc|ASC|DESC', details: {} };

describe('parseSort', () => {
  it.each([
    ['sort=title', [{ path: ['title'], order: 'asc' }]],
    ['sort=title:desc', [{ path: ['title'], order: 'desc' }]],
    ['sort=title:DESC', [{ path: ['title'], order: 'desc' }]],
    ['sort=views:desc,title', [{ path: ['views'], order: 'desc' }, { path: ['title'], order: 'asc' }]],
    ['sort[0]=rating:desc&sort[1]=title:asc', [{ path: ['rating'], order: 'desc' }, { path: ['title'], order: 'asc' }]],
    ['sort=a&sort=b'.replace('a', 'title').replace('b', 'views'), [{ path: ['title'], order: 'asc' }, { path: ['views'], order: 'asc' }]],
    ['sort[views]=desc', [{ path: ['views'], order: 'desc' }]],
    ['sort[0][author][name]=desc&sort[1][title]=asc', [{ path: ['author', 'name'], order: 'desc' }, { path: ['title'], order: 'asc' }]],
    ['sort=author.name:asc', [{ path: ['author', 'name'], order: 'asc' }]],
    ['sort=seo.metaTitle:desc', [{ path: ['seo', 'metaTitle'], order: 'desc' }]],
    ['sort=seo.socials.network', [{ path: ['seo', 'socials', 'network'], order: 'asc' }]],
    ['sort=cover.name', [{ path: ['cover', 'name'], order: 'asc' }]],
    ['sort=id:desc', [{ path: ['id'], order: 'desc' }]],
    ['sort=title:desc,', [{ path: ['title'], order: 'desc' }]],
  ])('%s', (raw, expected) => {
    expect(parse(raw).sort).toEqual(expected);
  });

  it('is empty without a sort parameter', () => {
    expect(parse('').sort).toEqual([]);
  });

  it.each([
    ['sort=nope:asc', {}, invalidKey('nope', null, 'sort')],
    ['sort[title]=up', {}, ORDER],
    ['sort=title:up', {}, ORDER],
    ['sort=nope:up', {}, invalidKey('nope', null, 'sort')],
    ['sort=title:up,nope', {}, invalidKey('nope', null, 'sort')],
    ['sort=author.name', { public: true }, invalidKey('author', 'author', 'sort')],
    ['sort[0][author][name]=desc', { public: true }, invalidKey('author', 'author', 'sort')],
    ['sort=author.internalNote', {}, invalidKey('internalNote', 'author.internalNote', 'sort')],
    ['sort=author', {}, invalidKey('author', 'author', 'sort')],
    ['sort=blocks', {}, invalidKey('blocks', 'blocks', 'sort')],
    ['sort=title.x', {}, invalidKey('x', 'title', 'sort')],
    ['sort=author.nope', {}, invalidKey('nope', 'author', 'sort')],
    ['sort=createdBy', {}, invalidKey('createdBy', 'createdBy', 'sort')],
    ['sort[title][$gt]=1', {}, invalidKey('$gt', 'title', 'sort')],
  ])('%s (%j) is refused', (raw, opts, expected) => {
    expect(parseError(raw, opts)).toEqual(expected);
  });

  it('is ignored on writes', () => {
    expect(parse('sort=nope', { action: 'write' }).sort).toEqual([]);
  });
});
