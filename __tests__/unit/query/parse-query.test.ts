import { parse, parseError } from './parse-helper';

describe('parseQuery: locale and status', () => {
  it.each([
    ['', 'api::article.article', 'en'],
    ['locale=fr', 'api::article.article', 'fr'],
    ['locale=*', 'api::article.article', '*'],
    ['locale=de', 'api::article.article', 'de'],
    ['locale=all', 'api::article.article', 'all'],
    ['locale=fr&locale=en', 'api::article.article', 'fr'],
    ['filters[locale][$eq]=fr', 'api::article.article', '*'],
    ['filters[$or][0][locale]=fr', 'api::article.article', '*'],
    ['filters[locale][$eq]=fr&locale=en', 'api::article.article', 'en'],
    ['locale=fr', 'api::global.global', 'fr'],
    ['locale=fr', 'api::category.category', undefined],
    ['', 'api::about.about', undefined],
  ])('%s on %s -> %s', (raw, uid, expected) => {
    expect(parse(raw, { uid }).locale).toBe(expected);
  });

  it.each([
    ['', 'api::article.article', 'published'],
    ['status=published', 'api::article.article', 'published'],
    ['status=draft', 'api::article.article', 'draft'],
    ['status=bad', 'api::article.article', 'draft'],
    ['status', 'api::article.article', 'published'],
    ['status=draft', 'api::category.category', 'published'],
    ['status=draft', 'api::about.about', 'draft'],
  ])('%s on %s -> %s', (raw, uid, expected) => {
    expect(parse(raw, { uid }).status).toBe(expected);
  });
});

describe('parseQuery: whole query', () => {
  it('ignores unknown parameters (error.query-unknown-param)', () => {
    expect(parseError('foo=bar&fields[0]=title&pagination[pageSize]=1')).toBe('no error');
  });

  it('reports filters before sort, fields and populate, and those before pagination', () => {
    expect(parseError('filters[nope]=1&sort=nope2&fields=nope3&populate=nope4&pagination[page]=x')).toMatchObject({ details: { key: 'nope', param: 'filters' } });
    expect(parseError('sort=nope2&fields=nope3&populate=nope4&pagination[page]=x')).toMatchObject({ details: { key: 'nope2', param: 'sort' } });
    expect(parseError('fields=nope3&populate=nope4&pagination[page]=x')).toMatchObject({ details: { key: 'nope3', param: 'fields' } });
    expect(parseError('populate=nope4&pagination[page]=x')).toMatchObject({ details: { key: 'nope4', param: 'populate' } });
  });

  it('keeps only fields, populate, locale and status for writes', () => {
    const q = parse('filters[nope]=1&sort=nope&fields=title&populate=cover&status=draft&locale=fr', { action: 'write' });
    expect(q).toMatchObject({ fields: ['title'], locale: 'fr', status: 'draft', sort: [] });
    expect(q.filters).toBeUndefined();
    expect(Object.keys(q.populate)).toEqual(['cover']);
  });

  it('builds the default query', () => {
    expect(parse('')).toEqual({ sort: [], pagination: { kind: 'page', page: 1, pageSize: 25, withCount: true }, fields: null, populate: {}, locale: 'en', status: 'published' });
  });

  it('accepts a leading "?" and percent-encoded brackets', () => {
    expect(parse('?fields%5B0%5D=title&sort=title').fields).toEqual(['title']);
  });
});
