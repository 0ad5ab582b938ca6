import { shallowCopy } from '../../../lib/engine/memory/execution/shallow-copy';

type Row = Record<string, unknown>;

/** Own keys (strings then symbols, in order), values, property descriptors and prototype, as spread makes them. */
function described(row: object): unknown {
  return { proto: Object.getPrototypeOf(row), keys: Reflect.ownKeys(row), descriptors: Object.getOwnPropertyDescriptors(row) };
}

describe('shallowCopy (a read-only context\'s copyRow)', () => {
  const nested = { deep: [1, 2] };
  const withProto: Row = JSON.parse('{"a":1,"__proto__":{"polluted":true},"b":2}') as Row;
  const symbol = Symbol('s');
  const withSymbol: Row = { a: 1, [symbol]: 'x' };
  const withGetter: Row = Object.defineProperty({ a: 1 } as Row, 'b', { get: () => 42, enumerable: true });
  const withHidden: Row = Object.defineProperty({ a: 1 } as Row, 'b', { value: 2, enumerable: false });
  const cases: [string, Row][] = [
    ['a stored row', { _id: 'x', id: 1, documentId: 'd1', title: 't', author: 'a1', nested, list: [1, 2], none: null, missing: undefined }],
    ['integer-like keys (ordered first)', { b: 1, 10: 'ten', 2: 'two', a: 3 }],
    ['keys that need quoting', { 'a b': 1, 'quote"d': 2, 'line\nbreak': 3, '\u2028': 4, 'a.b': 5, $x: 6, '': 7 }],
    ['an own __proto__ key', withProto],
    ['a symbol key', withSymbol],
    ['an enumerable getter', withGetter],
    ['a non-enumerable property', withHidden],
    ['no keys', {}],
  ];

  it.each(cases)('%s: the same object as { ...row }', (_name, row) => {
    for (let i = 0; i < 3; i++) {
      const copy = shallowCopy(row);
      expect(copy).not.toBe(row);
      expect(described(copy)).toEqual(described({ ...row }));
    }
  });

  it('keeps the values (a shallow copy) and leaves the row unchanged when the copy changes', () => {
    const row: Row = { id: 1, nested };
    const copy = shallowCopy(row);
    expect(copy.nested).toBe(nested);
    copy.id = 2;
    copy.author = 'a1';
    expect(row).toEqual({ id: 1, nested });
  });

  it('copies rows of one list of keys in another order with their own order', () => {
    const first = shallowCopy({ a: 1, b: 2 });
    const second = shallowCopy({ b: 2, a: 1 });
    expect(Object.keys(first)).toEqual(['a', 'b']);
    expect(Object.keys(second)).toEqual(['b', 'a']);
  });

  it('copies rows of many different lists of keys (past the compiled copiers kept) exactly', () => {
    for (let i = 0; i < 700; i++) {
      const row: Row = { id: i, [`field${i}`]: i, last: 'x' };
      expect(Object.entries(shallowCopy(row))).toEqual(Object.entries(row));
    }
  });
});
