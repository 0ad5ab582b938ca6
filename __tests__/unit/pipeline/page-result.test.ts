import { readPage } from '../../../lib/pipeline';
import { canonicalBigInteger } from '../../../lib/schema/big-integer';

describe('readPage: the total wherever $unionWith put it, rows by __pos', () => {
  it.each<[string, Record<string, unknown>[], boolean, { ids: unknown[]; total: number | undefined }]>([
    ['total last', [{ id: 1, __pos: 1 }, { id: 2, __pos: 2 }, { __total: 9 }], true, { ids: [1, 2], total: 9 }],
    ['total first, rows out of order', [{ __total: 9 }, { id: 2, __pos: 2 }, { id: 1, __pos: 1 }], true, { ids: [1, 2], total: 9 }],
    ['total between rows', [{ id: 3, __pos: 3 }, { __total: 3 }, { id: 1, __pos: 1 }, { id: 2, __pos: 2 }], true, { ids: [1, 2, 3], total: 3 }],
    ['no total document: $count saw nothing', [], true, { ids: [], total: 0 }],
    ['a page past the end: only the total', [{ __total: 4 }], true, { ids: [], total: 4 }],
    ['withCount false: no total', [{ id: 1, __pos: 1 }], false, { ids: [1], total: undefined }],
    ['a row holding __total among other keys is a row', [{ id: 1, __pos: 1, __total: 5 }], true, { ids: [1], total: 0 }],
  ])('%s', (_name, docs, withCount, expected) => {
    const { rows, total } = readPage(docs, withCount);
    expect({ ids: rows.map((r) => r.id), total }).toEqual(expected);
  });
});

describe('canonicalBigInteger', () => {
  it.each<[string | number, string]>([
    ['7', '7'], ['007', '7'], ['+007', '7'], [' -0012 ', '-12'], ['-0', '0'], ['-000', '0'], ['0', '0'],
    ['99999999999999999999', '99999999999999999999'], [42, '42'], [-0, '0'], [9007199254740993, '9007199254740992'], ['abc', 'abc'],
  ])('%p -> %p', (input, expected) => {
    expect(canonicalBigInteger(input)).toBe(expected);
  });
});
