import { ApplicationError } from '../../../lib/errors';
import { parse, parseError } from './parse-helper';

/** Hostile query strings: each must give a Query or a Strapi-style error, never a crash or a polluted prototype. */
describe('parseQuery: hostile input', () => {
  afterEach(() => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
  });

  it.each([
    'filters[$where]=1',
    'filters[title][$regex]=.*',
    'filters[title][$expr][$gt]=1',
    'filters[$function][body]=x',
    'filters[title][$eq][$ne]=1',
    'filters[__proto__][polluted]=1',
    '__proto__[polluted]=1',
    'filters[constructor][prototype][polluted]=1',
    'populate[__proto__][polluted]=1',
    'populate[constructor]=true',
    'populate=constructor',
    'populate=__proto__',
    'populate=hasOwnProperty.x',
    'sort=__proto__',
    'sort=constructor.prototype',
    'sort[__proto__][polluted]=asc',
    'fields=__proto__,constructor,toString',
    'fields[0]=valueOf',
    'filters[toString][$eq]=1',
    'filters[title][__proto__]=x',
    'pagination[__proto__][polluted]=1',
    'populate[blocks][on][__proto__]=true',
    'populate[blocks][on][constructor]=true',
    'locale[__proto__]=x',
    'status[polluted]=1',
    `filters${'[a]'.repeat(30)}=1`,
    `populate${'[populate][cover]'.repeat(15)}=true`,
    `filters[$and]${'[0][$and]'.repeat(30)}[0][title]=x`,
    'filters[title][$in][]=a&filters[title][$in][]=b',
    '%E0%A4%A=1&filters[title]=%E0%A4%A',
    'filters[title]=%00',
    '&&&==&=',
  ])('%s', (raw) => {
    let outcome: unknown;
    try {
      outcome = parse(raw);
    } catch (error) {
      expect(error).toBeInstanceOf(ApplicationError);
      expect((error as ApplicationError).status).toBe(400);
      outcome = error;
    }
    expect(outcome).toBeDefined();
  });

  it.each([
    ['filters[$where]=1', '$where'],
    ['filters[title][$regex]=.*', '$regex'],
    ['populate=constructor', 'constructor'],
    ['sort=constructor', 'constructor'],
    ['fields=toString', 'toString'],
  ])('%s is Invalid key %s', (raw, key) => {
    expect(parseError(raw)).toMatchObject({ name: 'ValidationError', details: { key } });
  });

  it('drops prototype keys silently where qs removes them', () => {
    expect(parse('filters[__proto__][polluted]=1').filters).toBeUndefined();
    expect(parse('__proto__[polluted]=1')).toMatchObject({ fields: null, populate: {} });
  });

  it('reads at most 1000 parameters of 5,000', () => {
    const raw = Array.from({ length: 5000 }, (_, i) => `filters[$or][${i}][views]=${i}`).join('&');
    const q = parse(raw);
    if (q.filters?.type !== 'or') throw new Error('expected an or node');
    expect(q.filters.children).toHaveLength(1000);
  });

  it('handles 5,000 parameters of an unknown key', () => {
    const raw = Array.from({ length: 5000 }, (_, i) => `x${i}=${i}`).join('&');
    expect(parseError(raw)).toBe('no error');
  });

  it('keeps brackets past depth 20 as a literal key: an unknown attribute, not a deeper tree', () => {
    const raw = `filters[categories]${'[parent]'.repeat(25)}[name]=x`;
    expect(parseError(raw, { uid: 'api::category.category' })).toMatchObject({ name: 'ValidationError', details: { param: 'filters' } });
  });

  it('treats values as data: a $ inside a value is never an operator', () => {
    expect(parse('filters[title][$eq]=$where').filters).toMatchObject({ operator: '$eq', value: '$where' });
    expect(parse('filters[title]={"$gt":""}').filters).toMatchObject({ operator: '$eq', value: '{"$gt":""}' });
  });

  it('never gives an object where a scalar is expected', () => {
    expect(parseError('filters[views][$gt][$gt]=1')).toMatchObject({ name: 'ValidationError', details: { key: '$gt', path: 'views' } });
    expect(parseError('filters[views][$in][0][$gt]=1')).toMatchObject({ name: 'ValidationError', details: { key: '$in', path: 'views' } });
    expect(parseError('filters[author][id][$eq][$ne]=1')).toMatchObject({ name: 'ValidationError', details: { key: '$eq', path: 'author.id' } });
  });
});
