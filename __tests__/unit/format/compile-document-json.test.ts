import { compileDocumentJson, formatDocument } from '../../../lib/format';
import { copiedJsonOf, copyValue, jsonOf } from '../../../lib/format/json-value';
import { parse, registry } from '../query/parse-helper';
import { prng } from '../../helpers/prng';

type Row = Record<string, unknown>;


const CHARS = ['a', 'Z', ' ', '"', '\\', '/', '\n', '\t', '\u0000', '\u001f', '\u007f', '\u2028', 'é', '中', '😀', '\ud800', '\udfff', '<', '&'];

class Point {
  constructor(readonly x: number) {}
}
class Stamp {
  toJSON(): string {
    return 'stamp';
  }
}

function randomValue(rand: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const text = (): string => Array.from({ length: Math.floor(rand() * 6) }, () => pick(CHARS)).join('');
  switch (Math.floor(rand() * (depth > 2 ? 9 : 14))) {
    case 0: return text();
    case 1: return pick([0, -0, 1.5, -3, 1e21, 5e-324, 2 ** 53, NaN, Infinity, -Infinity]);
    case 2: return pick([true, false]);
    case 3: return null;
    case 4: return undefined;
    case 5: return pick([new Date(0), new Date(Number.NaN), new Date('2026-01-01T00:00:00Z')]);
    case 6: return pick([() => 1, Symbol('s')]);
    case 7: return pick([new Point(1), new Stamp(), Object.assign(new String('boxed'), {}), new Number(2)]);
    case 8: return JSON.parse('{"__proto__": {"x": 1}, "y": 2}') as unknown;
    case 9:
    case 10: {
      const out: Row = rand() < 0.2 ? Object.create(null) : {};
      for (let i = Math.floor(rand() * 4); i > 0; i--) out[text() || 'k'] = randomValue(rand, depth + 1);
      return out;
    }
    default: {
      const out = Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
      if (rand() < 0.1) out.length += 2; // holes
      return out;
    }
  }
}

function randomRow(rand: () => number, keys: readonly string[], nested: (key: string) => unknown): Row {
  const row: Row = {};
  for (const key of keys) {
    if (rand() < 0.1) continue;
    row[key] = rand() < 0.7 ? nested(key) : randomValue(rand, 0);
  }
  return row;
}

const ARTICLE_KEYS = ['id', 'documentId', 'title', 'slug', 'description', 'content', 'views', 'rating', 'featured', 'publishDate', 'cover', 'gallery', 'author', 'categories', 'seo', 'blocks', 'createdAt', 'updatedAt', 'publishedAt', 'locale', 'localizations', 'secret', '_status'];
const RELATED_KEYS = ['id', 'documentId', 'name', 'email', 'bio', 'slug', 'formats', 'url', 'createdAt', 'updatedAt', 'publishedAt', 'locale', 'articles', 'avatar', 'parent', 'count'];
const COMPONENT_KEYS = ['id', '__component', 'metaTitle', 'metaDescription', 'body', 'title', 'files', 'shareImage', 'socials'];
const COMPONENTS = ['shared.quote', 'shared.rich-text', 'shared.slider', 'shared.media', 'shared.seo', 'unknown.thing', 'toString'];

function randomArticle(rand: () => number, depth = 0): Row {
  const related = (): unknown => {
    const r = rand();
    if (r < 0.3) return randomRow(rand, RELATED_KEYS, () => randomValue(rand, 1));
    if (r < 0.7) return Array.from({ length: Math.floor(rand() * 3) }, () => (rand() < 0.9 ? randomRow(rand, RELATED_KEYS, () => randomValue(rand, 1)) : randomValue(rand, 2)));
    if (r < 0.8) return { count: Math.floor(rand() * 5) };
    return randomValue(rand, 2);
  };
  const component = (): Row => randomRow(rand, COMPONENT_KEYS, (k) => (k === '__component' ? COMPONENTS[Math.floor(rand() * COMPONENTS.length)] : related()));
  return randomRow(rand, ARTICLE_KEYS, (key) => {
    if (['cover', 'gallery', 'author', 'categories'].includes(key)) return related();
    if (key === 'seo') return rand() < 0.5 ? component() : related();
    if (key === 'blocks') return rand() < 0.8 ? Array.from({ length: Math.floor(rand() * 4) }, component) : related();
    if (key === 'localizations') return depth < 1 && rand() < 0.7 ? [randomArticle(rand, depth + 1)] : randomValue(rand, 2);
    return randomValue(rand, 0);
  });
}

const QUERIES = [
  '',
  'populate=*',
  'fields[0]=title&fields[1]=locale',
  'populate[author][populate][avatar]=true&populate[categories][populate][parent][populate][parent]=true',
  'populate[categories][count]=true&populate[gallery][count]=true&populate[author][count]=true',
  'populate[blocks][on][shared.quote][fields][0]=title&populate[blocks][on][shared.slider][populate][files][fields][0]=name',
  'populate[blocks][populate]=*&populate[seo][populate]=*',
  'populate[localizations][fields][0]=title&populate[localizations][populate][author]=true&fields=title',
  'populate=localizations',
];

describe('compileDocumentJson', () => {
  it.each(QUERIES)('writes JSON.stringify(formatDocument(row)) for 300 random article rows, each twice: %s', (raw) => {
    const query = parse(raw);
    const toJson = compileDocumentJson(registry, 'api::article.article', query);
    const rand = prng(raw.length + 17);
    for (let i = 0; i < 300; i++) {
      const row = randomArticle(rand);
      let expected: string | Error;
      try {
        expected = JSON.stringify(formatDocument(registry, 'api::article.article', row, query));
      } catch (error) {
        expected = error as Error;
      }
      if (expected instanceof Error) expect(() => toJson(row)).toThrow(expected.constructor as new () => Error);
      // Twice: the second time from the bytes kept by object identity (joined rows, components, dynamic zone items).
      else for (let n = 0; n < 2; n++) expect(toJson(row)).toBe(expected);
    }
  });

  // Each value in every scalar field (the typed fast paths: a string attribute's string, a number's number...,
  // and their fallbacks), at the top, in components, dynamic zone items and joined rows.
  const VALUES: unknown[] = [
    '', 'plain', 'é中😀', 'quote " backslash \\ newline \n nul \u0000', '\ud800 lone', 'pair \ud83d\ude00', '\u2028\u007f',
    'a'.repeat(47), `${'a'.repeat(47)}"`, 'a'.repeat(48), `${'a'.repeat(100)}é`, `${'a'.repeat(100)}\t`,
    0, -0, 7, -1.5, 1e21, 5e-324, 2 ** 53, NaN, Infinity, -Infinity, true, false, null, undefined,
    new Date(0), new Date(Number.NaN), { a: [1, 'x', null] }, [], new Stamp(), new Point(2), new String('boxed'), () => 1, Symbol('s'), 10n,
  ];
  const SCALARS = ['id', 'documentId', 'title', 'slug', 'description', 'content', 'views', 'rating', 'featured', 'publishDate', 'createdAt', 'updatedAt', 'publishedAt', 'locale'];

  it.each(VALUES.map((value, i) => [i, value] as const))('writes value %i in every scalar field as the formatter does', (_i, value) => {
    const all = (keys: readonly string[], base: Row): Row => Object.fromEntries([...Object.entries(base), ...keys.map((k) => [k, value])]);
    const joined = (n: number): Row => all(['id', 'documentId', 'name', 'email', 'bio', 'slug', 'description', 'createdAt', 'locale'], { avatar: all(['id', 'name', 'width', 'size', 'formats', 'focalPoint'], {}), n });
    const row = all(SCALARS, {
      seo: all(['id', 'metaTitle', 'metaDescription'], {}),
      blocks: [all(['id', 'title', 'body'], { __component: 'shared.quote' }), all(['body'], { __component: 'shared.rich-text' })],
      author: joined(1),
      categories: [joined(2), joined(3)],
    });
    const check = (raw: string, r: Row): void => {
      const selection = parse(raw);
      let expected: string | Error;
      try {
        expected = JSON.stringify(formatDocument(registry, 'api::article.article', r, selection));
      } catch (error) {
        expected = error as Error;
      }
      const toJson = compileDocumentJson(registry, 'api::article.article', selection);
      if (expected instanceof Error) expect(() => toJson(r)).toThrow(expected.constructor as new () => Error);
      else for (let n = 0; n < 2; n++) expect(toJson(r)).toBe(expected);
    };
    check('populate[seo]=true&populate[blocks]=true&populate[author][populate][avatar]=true&populate[categories]=true', row);
    check('fields[0]=title&fields[1]=views&fields[2]=featured&fields[3]=publishDate&fields[4]=createdAt&fields[5]=locale', row);
    // Missing fields, another key order and a row without a prototype go through the same compiled writer.
    check('', {});
    check('', Object.assign(Object.create(null) as Row, { locale: value, title: value, id: value }));
  });

  it('reads and writes attribute names that need quoting or escaping in the compiled code', () => {
    const base = registry.contentType('api::author.author');
    const scalar = base.attributes.name!;
    const names = ['a"b', 'c\\d', 'e\nf', '\u2028', 'ключ', '😀', 'constructor', 'toString', '$x', '`${x}`', '"]; throw new Error(1); //', '\ud800', ''];
    const attributes = { ...base.attributes, ...Object.fromEntries(names.map((n) => [n, scalar])) };
    const oddType = { ...base, uid: 'api::odd.odd', attributes, attributeNames: names };
    const odd = { ...registry, contentType: () => oddType } as typeof registry;
    const selection = { fields: null, populate: {} };
    const rows: Row[] = [{ id: 1, documentId: 'x', ...Object.fromEntries(names.map((n, i) => [n, `v${i}`])) }, { id: 2 }, Object.create({ toString: 'inherited' }) as Row];
    for (const row of rows) expect(compileDocumentJson(odd, 'api::odd.odd', selection)(row)).toBe(JSON.stringify(formatDocument(odd, 'api::odd.odd', row, selection)));
  });

  it('falls back to the formatter for names an object orders first or cannot hold', () => {
    const base = registry.contentType('api::author.author');
    const scalar = base.attributes.name!;
    const attributes = { ...base.attributes, b: scalar, '7': scalar, a: scalar };
    const oddType = { ...base, uid: 'api::odd.odd', attributes, attributeNames: ['b', '7', 'a'] };
    const odd = { ...registry, contentType: () => oddType } as typeof registry;
    const selection = { fields: null, populate: {} };
    const row = { id: 1, documentId: 'x', b: 'b', '7': 'seven', a: 2 };
    expect(compileDocumentJson(odd, 'api::odd.odd', selection)(row)).toBe(JSON.stringify(formatDocument(odd, 'api::odd.odd', row, selection)));
  });
});

describe('json-value', () => {
  it('jsonOf is JSON.stringify and copiedJsonOf is JSON.stringify of the copy, for 5,000 random values', () => {
    const rand = prng(4);
    for (let i = 0; i < 5000; i++) {
      const value = randomValue(rand, 0);
      expect(jsonOf(value)).toBe(JSON.stringify(value));
      expect(copiedJsonOf(value)).toBe(JSON.stringify(copyValue(value)));
    }
  });

  it('writes the cases that differ between a value and its copy as the copy', () => {
    const proto = JSON.parse('{"__proto__": {"x": 1}, "y": 2}') as unknown;
    expect(copiedJsonOf(proto)).toBe('{"y":2}');
    expect(copiedJsonOf([new Stamp()])).toBe('[{}]');
    expect(copiedJsonOf({ a: new Point(3) })).toBe('{"a":{"x":3}}');
    expect(copiedJsonOf(-0)).toBe('0');
    expect(copiedJsonOf(NaN)).toBe('null');
    expect(copiedJsonOf('\ud800"')).toBe('"\\ud800\\""');
  });
});
