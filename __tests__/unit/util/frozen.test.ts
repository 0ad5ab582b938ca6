import { createIdentityCache, deepFreeze } from '../../../lib/util/frozen';

describe('the identity contract (lib/util/frozen)', () => {
  it('keeps a value by the identity of a frozen key, and computes it every time for a key that is not frozen', () => {
    const cache = createIdentityCache<object, number>();
    let n = 0;
    const frozen = deepFreeze({ a: { b: 1 } });
    const open = { a: { b: 1 } };
    expect([cache.get(frozen, () => ++n), cache.get(frozen, () => ++n)]).toEqual([1, 1]);
    expect([cache.get(open, () => ++n), cache.get(open, () => ++n)]).toEqual([2, 3]);
    expect(Object.isFrozen(frozen.a)).toBe(true);
  });

  it('computes again when the kept value was made in another context', () => {
    const cache = createIdentityCache<object, { ctx: string }>();
    const key = Object.freeze({});
    expect(cache.get(key, () => ({ ctx: 'a' }), (kept) => kept.ctx === 'a').ctx).toBe('a');
    expect(cache.get(key, () => ({ ctx: 'b' }), (kept) => kept.ctx === 'b').ctx).toBe('b');
    expect(cache.get(key, () => ({ ctx: 'c' }), (kept) => kept.ctx === 'b').ctx).toBe('b');
  });
});
