import { BoundedMemo, MemoBudget } from '../../../lib/util/bounded-memo';

describe('BoundedMemo', () => {
  it('holds at most the budget: after many distinct keys the oldest are dropped, the counted bytes stay under it', () => {
    const budget = new MemoBudget(10_000);
    const memo = new BoundedMemo<object, string>(budget, (value) => value.length);
    const keys = Array.from({ length: 1000 }, () => ({}));
    keys.forEach((key, i) => memo.set(key, `value ${i}`.padEnd(100, '.')));
    expect(budget.current).toBeLessThanOrEqual(budget.maxBytes / 2);
    expect(budget.turns).toBeGreaterThan(5);
    const kept = keys.filter((key) => memo.get(key) !== undefined).length;
    // Two generations of at most half the budget each: at most 100 entries of 100 bytes.
    expect(kept).toBeLessThanOrEqual(100);
    expect(memo.get(keys[0]!)).toBeUndefined();
    expect(memo.get(keys[999]!)).toBe('value 999'.padEnd(100, '.'));
  });

  it('keeps what is used: an entry found in the previous generation moves back to the current one', () => {
    const budget = new MemoBudget(1000);
    const memo = new BoundedMemo<object, number>(budget, () => 100);
    const hot = {};
    memo.set(hot, 1);
    for (let i = 0; i < 100; i++) {
      memo.set({}, i);
      expect(memo.get(hot)).toBe(1);
    }
    expect(budget.turns).toBeGreaterThan(10);
  });

  it('counts what an entry grows by, and all the memos of one budget turn together', () => {
    const budget = new MemoBudget(1000);
    const a = new BoundedMemo<object, number[]>(budget, (list) => 10 * list.length);
    const b = new BoundedMemo<object, number>(budget, () => 10);
    const keyA = {};
    const keyB = {};
    const list = a.set(keyA, []);
    b.set(keyB, 1);
    for (let i = 0; i < 200; i++) {
      list.push(i);
      a.grew(10);
    }
    // 2,000 bytes counted: two turns; b was not used since: gone.
    expect(budget.turns).toBeGreaterThanOrEqual(2);
    expect(b.get(keyB)).toBeUndefined();
  });
});
