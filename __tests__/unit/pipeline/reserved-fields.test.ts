import { meteredJoin } from '../../../lib/engine/memory/execution/row-meter';
import { compileFind, isTempField, POSITION_FIELD, RESERVED_PREFIX, TEMP, TOTAL_FIELD } from '../../../lib/pipeline';
import { sortKeyField } from '../../../lib/pipeline/reserved-fields';
import { article, asc, author, pop, query, registry, through, where } from './fixtures';

const A = article.attributes;

/** Every name under `as`, in `$unset` and as an `$addFields` key that starts with the reserved prefix. */
function reservedNames(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => reservedNames(v, found));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.startsWith(RESERVED_PREFIX)) found.add(k);
      if (typeof v === 'string' && v.startsWith(RESERVED_PREFIX)) found.add(v);
      reservedNames(v, found);
    }
  }
  return found;
}

describe('the compiler reserved field names (pipeline/reserved-fields)', () => {
  it.each([
    ['__rf1', undefined, true], ['__sk12', undefined, true], ['__s3', TEMP.sortJoin, true], ['__sk3', TEMP.sortJoin, false],
    ['__sk3', TEMP.sortKey, true], ['__p2', TEMP.populate, true], ['__p', undefined, false], ['__total', undefined, false],
    ['title', undefined, false], ['__x1', undefined, false], ['__s1a', undefined, false],
  ] as const)('isTempField(%s, %s) is %s', (name, prefix, expected) => {
    expect(isTempField(name, prefix)).toBe(expected);
  });

  it('pairs a relation sort join with its key field', () => {
    expect(sortKeyField(`${TEMP.sortJoin}7`)).toBe(`${TEMP.sortKey}7`);
  });

  it('every reserved name a compiled pipeline holds is a temp field, the total or the position', () => {
    const q = query(article, {
      filters: through(article, 'author', where(author.attributes, 'name', '$eq', 'Ann Archer')),
      sort: [asc('author', 'name')],
      populate: { seo: pop(A, 'seo', { populate: { shareImage: pop(registry.component('shared.seo').attributes, 'shareImage') } }), categories: pop(A, 'categories') },
    });
    const names = [...reservedNames(compileFind(registry, article, q))];
    const temps = names.filter((n) => n !== TOTAL_FIELD && n !== POSITION_FIELD);
    expect(temps.length).toBeGreaterThan(0);
    expect(temps.filter((n) => !isTempField(n))).toEqual([]);
    for (const prefix of [TEMP.relationFilter, TEMP.sortJoin, TEMP.sortKey, TEMP.populate]) {
      expect(temps.some((n) => isTempField(n, prefix))).toBe(true);
    }
  });

  it('the memory engine meters the compiler joins by these names', () => {
    expect(meteredJoin(`${TEMP.sortJoin}4`, 'author')).toEqual({ segment: 'author', param: 'sort' });
    expect(meteredJoin(`${TEMP.populate}2`, 'seo.shareImage')).toEqual({ segment: 'seo.shareImage', param: 'populate' });
    expect(meteredJoin(`${TEMP.relationFilter}1`, 'author')).toBeNull();
    expect(meteredJoin('categories', 'categories')).toEqual({ segment: 'categories', param: 'populate' });
  });
});
