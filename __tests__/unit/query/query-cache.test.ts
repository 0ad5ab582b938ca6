import { ValidationError } from '../../../lib/errors';
import { createQueryCache, deepFreeze, parseQuery, type Query, type QueryContext } from '../../../lib/query';
import { article, registry } from './parse-helper';

const rest = { defaultLimit: 25, maxLimit: 100 };
const everything: QueryContext = { canFind: () => true };
const noAuthors: QueryContext = { canFind: (uid) => uid !== 'api::author.author' };

describe('createQueryCache', () => {
  const setup = () => {
    const cache = createQueryCache();
    let parses = 0;
    const get = (context: QueryContext, rawQuery: string): Query =>
      cache(context, `find?${rawQuery}`, () => {
        parses++;
        return parseQuery({ registry, contentType: article, rawQuery, context, rest, action: 'find' });
      });
    return { get, parses: () => parses };
  };

  it('parses a query string once per context and hands out the same frozen Query', () => {
    const { get, parses } = setup();
    const first = get(everything, 'populate=*&sort=title:desc');
    expect(get(everything, 'populate=*&sort=title:desc')).toBe(first);
    expect(parses()).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.populate)).toBe(true);
    expect(Object.isFrozen(first.populate.author)).toBe(true);
    expect(Object.isFrozen(first.sort[0])).toBe(true);
    expect(() => {
      (first.sort as unknown as unknown[]).push('x');
    }).toThrow(TypeError);
  });

  it('keeps the answers of two contexts apart (populate depends on canFind)', () => {
    const { get, parses } = setup();
    expect(Object.keys(get(everything, 'populate=*').populate)).toContain('author');
    expect(Object.keys(get(noAuthors, 'populate=*').populate)).not.toContain('author');
    expect(parses()).toBe(2);
  });

  it('does not keep a failed parse: the error is thrown every time', () => {
    const { get, parses } = setup();
    expect(() => get(everything, 'filters[nope]=1')).toThrow(ValidationError);
    expect(() => get(everything, 'filters[nope]=1')).toThrow(ValidationError);
    expect(parses()).toBe(2);
  });

  it('parses long query strings every time and keeps at most 1,024 queries, all callers together', () => {
    const { get, parses } = setup();
    const long = `filters[title][$eq]=${'x'.repeat(3000)}`;
    expect(get(everything, long)).not.toBe(get(everything, long));
    expect(parses()).toBe(2);
    // Queries this light (a stand-in of a few bytes) fit 1,024 in the byte budget: the count is the bound.
    const light = (page: number): string => `pagination[page]=${page}`;
    const cache = createQueryCache();
    const parseLight = (context: QueryContext, rawQuery: string): Query => cache(context, `find?${rawQuery}`, () => ({ rawQuery }) as unknown as Query);
    const first = parseLight(everything, light(1));
    for (let page = 2; page <= 512; page++) parseLight(everything, light(page));
    for (let page = 1; page <= 512; page++) parseLight(noAuthors, light(page));
    expect(cache.size).toBe(1024);
    expect(parseLight(everything, light(1))).toBe(first);
    parseLight(noAuthors, light(513));
    expect(parseLight(everything, light(1))).not.toBe(first);
  });

  it('keeps at most 8 MB of queries by its estimate, with what is compiled from them: heavy queries push the oldest out sooner', () => {
    const cache = createQueryCache();
    const get = (rawQuery: string): Query => cache(everything, `find?${rawQuery}`, () => parseQuery({ registry, contentType: article, rawQuery, context: everything, rest, action: 'find' }));
    const heavy = (page: number): string => `populate[author][populate]=*&populate[categories][populate]=*&populate[seo][populate]=*&pagination[page]=${page}`;
    const first = get(heavy(1));
    expect(get(heavy(1))).toBe(first);
    for (let page = 2; page <= 1000; page++) get(heavy(page));
    expect(cache.bytes).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(cache.size).toBeLessThan(1000);
    // Within 1,024 queries and 131,072 characters (1,000 keys of about 110), yet the first is dropped.
    expect(get(heavy(1))).not.toBe(first);
  });

  it('keeps at most 131,072 characters of query strings, all callers together: long ones push the oldest out', () => {
    const { get } = setup();
    const key = (i: number): string => `filters[title][$eq]=${String(i).padStart(1900, '0')}`;
    const first = get(everything, key(0));
    for (let i = 1; i < 34; i++) get(everything, key(i));
    for (let i = 34; i < 68; i++) get(noAuthors, key(i));
    expect(get(everything, key(0))).toBe(first);
    for (let i = 68; i < 72; i++) get(noAuthors, key(i));
    expect(get(everything, key(0))).not.toBe(first);
  });

  it('deepFreeze leaves class instances and the skipped key alone', () => {
    const attribute = { kind: 'scalar' };
    const value = deepFreeze({ a: [{ b: 1 }], re: /x/, attribute }, 'attribute');
    expect(Object.isFrozen(value.a[0])).toBe(true);
    expect(Object.isFrozen(value.re)).toBe(false);
    expect(Object.isFrozen(attribute)).toBe(false);
  });
});
