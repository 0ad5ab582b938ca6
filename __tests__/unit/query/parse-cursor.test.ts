import { ValidationError } from '../../../lib/errors';
import { compileFind } from '../../../lib/pipeline';
import { parseQuery, type CursorPagination, type Query } from '../../../lib/query';
import { article, registry } from './parse-helper';

const SECRET = 'the unit tests cursor secret';

function parse(raw: string, secret = SECRET): Query {
  return parseQuery({
    registry, contentType: article, rawQuery: raw, context: { canFind: () => true },
    rest: { defaultLimit: 25, maxLimit: 100, cursorSecret: secret }, action: 'find',
  });
}

const cursorOf = (q: Query): CursorPagination => {
  if (q.pagination.kind !== 'cursor') throw new Error(`not a cursor page: ${q.pagination.kind}`);
  return q.pagination;
};

describe('parseCursor', () => {
  it('the first page: the keys end with id, no range', () => {
    const p = cursorOf(parse('sort=views:desc,seo.metaTitle&pagination[cursor]=&pagination[limit]=3'));
    expect(p).toEqual({ kind: 'cursor', limit: 3, withCount: false, keys: ['views', 'seo.metaTitle', 'id'], next: expect.any(Function) });
  });

  it('compiles a keyset range after the match, the sort on the keys and id, $limit N+1, never $skip', () => {
    const sort = 'sort=views:desc,title&pagination[limit]=2';
    const cursor = cursorOf(parse(`${sort}&pagination[cursor]=`)).next([7, 'Hi', 12]);
    const q = parse(`${sort}&pagination[cursor]=${cursor}&fields[0]=title`);
    const range = {
      $or: [
        { $or: [{ views: { $lt: 7 } }, { views: { $eq: null } }] },
        { $and: [{ views: { $eq: 7 } }, { title: { $gt: 'Hi' } }] },
        { $and: [{ views: { $eq: 7 } }, { title: { $eq: 'Hi' } }, { id: { $gt: 12 } }] },
      ],
    };
    expect(compileFind(registry, article, q)).toEqual([
      { $match: { _status: 'published', locale: 'en' } },
      { $match: range },
      { $sort: { views: -1, title: 1, id: 1 } },
      { $limit: 3 },
      { $setWindowFields: { sortBy: { views: -1, title: 1, id: 1 }, output: { __pos: { $documentNumber: {} } } } },
      { $addFields: { __cur: ['$views', '$title', '$id'] } },
      { $project: { id: 1, documentId: 1, locale: 1, _status: 1, publishedAt: 1, title: 1, __pos: 1, __cur: 1 } },
    ]);
  });

  it('a null value: rows after it ascending are the non-null ones; descending, only its ties', () => {
    const asc = cursorOf(parse('sort=views&pagination[cursor]=')).next([null, 4]);
    expect(JSON.stringify(compileFind(registry, article, parse(`sort=views&pagination[cursor]=${asc}`))[1])).toBe(
      JSON.stringify({ $match: { $or: [{ views: { $ne: null } }, { $and: [{ views: { $eq: null } }, { id: { $gt: 4 } }] }] } }),
    );
    const desc = cursorOf(parse('sort=views:desc&pagination[cursor]=')).next([null, 4]);
    expect(JSON.stringify(compileFind(registry, article, parse(`sort=views:desc&pagination[cursor]=${desc}`))[1])).toBe(
      JSON.stringify({ $match: { $or: [{ $and: [{ views: { $eq: null } }, { id: { $gt: 4 } }] }] } }),
    );
  });

  // A cursor sealed with the right key (a leaked secret, or a bug) still cannot carry an operator or a wrong type.
  it.each<[string, unknown[]]>([
    ['an operator object', [{ $ne: null }, 1]],
    ['an array', [[1, 2], 1]],
    ['a string for an integer', ['7', 1]],
    ['a null id', [7, null]],
    ['a fractional id', [7, 1.5]],
    ['too few values', [7]],
    ['too many values', [7, 1, 2]],
  ])('a sealed cursor holding %s is a 400', (_name, values) => {
    const token = cursorOf(parse('sort=views&pagination[cursor]=')).next(values);
    expect(() => parse(`sort=views&pagination[cursor]=${token}`)).toThrow(ValidationError);
  });

  it('a cursor of another secret is a 400', () => {
    const token = cursorOf(parse('pagination[cursor]=', 'another secret of sixteen')).next([3]);
    expect(() => parse(`pagination[cursor]=${token}`)).toThrow(/Invalid pagination\[cursor\]: not a cursor of this query/);
    expect(cursorOf(parse(`pagination[cursor]=${token}`, 'another secret of sixteen')).after).toBeDefined();
  });

  it('the cursor and the total: withCount is opt-in', () => {
    expect(cursorOf(parse('pagination[cursor]=&pagination[withCount]=true')).withCount).toBe(true);
    expect(cursorOf(parse('pagination[cursor]=&pagination[limit]=1000')).limit).toBe(100);
  });
});
