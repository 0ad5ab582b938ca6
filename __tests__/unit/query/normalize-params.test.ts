import { ValidationError } from '../../../lib';
import { normalizeParams, parseRawQuery } from '../../../lib/query';

// normalizeParams gives a parameter object the shape parseRawQuery gives the equivalent query string.
describe('normalizeParams', () => {
  it.each([
    ['numbers and booleans', { pagination: { page: 2, withCount: false } }, 'pagination[page]=2&pagination[withCount]=false'],
    ['a Date', { filters: { publishDate: { $lt: new Date('2026-01-02T03:04:05.000Z') } } }, 'filters[publishDate][$lt]=2026-01-02T03:04:05.000Z'],
    ['arrays', { populate: ['a', 'b'], fields: ['title'] }, 'populate[0]=a&populate[1]=b&fields[0]=title'],
    ['null (qs strictNullHandling)', { filters: { title: { $null: null } } }, 'filters[title][$null]'],
    ['undefined is dropped', { sort: undefined, locale: 'fr' }, 'locale=fr'],
    ['a bigint', { filters: { views: { $gt: 10n } } }, 'filters[views][$gt]=10'],
    ['nested objects', { populate: { author: { populate: { avatar: true } } } }, 'populate[author][populate][avatar]=true'],
  ])('%s', (_name, params, queryString) => {
    expect(normalizeParams(params)).toEqual(parseRawQuery(queryString));
  });

  it('drops the keys qs drops (Object.prototype members)', () => {
    const params = JSON.parse('{"filters":{"__proto__":{"x":1},"constructor":{"y":2},"title":"a"}}') as object;
    expect(normalizeParams(params)).toEqual({ filters: { title: 'a' } });
    expect(parseRawQuery('filters[__proto__][x]=1&filters[constructor][y]=2&filters[title]=a')).toEqual({ filters: { title: 'a' } });
  });

  it.each([
    ['a function', { filters: { title: { $eq: () => 1 } } }, 'Invalid value at filters[title][$eq]: a function is not a query value'],
    ['a class instance', { filters: { title: { $eq: new Map() } } }, 'Invalid value at filters[title][$eq]: a Map is not a query value'],
    ['an invalid Date', { filters: { publishDate: { $eq: new Date('nope') } } }, 'Invalid value at filters[publishDate][$eq]: an invalid Date'],
  ])('%s is a ValidationError', (_name, params, message) => {
    expect(() => normalizeParams(params)).toThrow(ValidationError);
    expect(() => normalizeParams(params)).toThrow(message);
  });

  it('a cycle or a nesting deeper than a query string can hold is a ValidationError, not a stack overflow', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => normalizeParams({ filters: cyclic })).toThrow(/nested deeper than 21 levels/);
  });
});
