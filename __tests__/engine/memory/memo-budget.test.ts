import { planSort } from '../../../lib/engine/memory/execution/sort-rows';
import { markStable } from '../../../lib/engine/memory/execution/stable-arrays';

type Row = Record<string, unknown>;

/** execution/memo-budget's ENGINE_MEMO_BYTES (written out: the test runs unchanged on code without the budget). */
const ENGINE_MEMO_BYTES = 32 * 1024 * 1024;

describe('the memory engine keeps its sort plans within its memo budget (execution/memo-budget)', () => {
  const stored: Row[] = Array.from({ length: 50_000 }, (_, i) => ({ id: i + 1, title: `t${(i * 7919) % 50_000}`, views: (i * 31) % 1000 }));

  it('keeps the plan of a cached array while it is used, and drops the plans of arrays no longer used', () => {
    const arrays = Array.from({ length: 3 + Math.ceil((2 * ENGINE_MEMO_BYTES) / (8 * stored.length)) }, () => markStable(stored.slice()));
    const spec = { views: 1, id: 1 };
    const first = planSort(arrays[0]!, spec);
    expect(first).not.toBeNull();
    expect(planSort(arrays[0]!, spec)).toBe(first);
    // More plans than the budget holds, of arrays that stay alive (a cached scope each): the first is not used again.
    const hot = planSort(arrays[1]!, spec);
    for (const rows of arrays.slice(2)) {
      planSort(rows, spec);
      expect(planSort(arrays[1]!, spec)).toBe(hot);
    }
    expect(planSort(arrays[0]!, spec)).not.toBe(first);
  });

  it('keeps a few sorts per array: requests choose them', () => {
    const rows = markStable(stored.slice(0, 1000));
    const first = planSort(rows, { views: 1, id: 1 });
    for (let i = 0; i < 40; i++) planSort(rows, { views: i % 2 === 0 ? 1 : -1, title: 1, [`x${i}`]: 1, id: 1 });
    expect(planSort(rows, { views: 1, id: 1 })).not.toBe(first);
  });
});
