import { minMaxStage } from '../../../lib/engine/memory/execution/fast-paths/min-max-key';
import { projectRefsStage } from '../../../lib/engine/memory/execution/fast-paths/project-refs';

type Row = Record<string, unknown>;
const copy = (row: Row): Row => ({ ...row });

/** The stages of a relation sort key, run without mingo: the manual's answers. */
describe('memory engine: relation sort key stages', () => {
  it('$max / $min of a joined field ignore null and missing values, compare in BSON order, and give null for none', () => {
    // https://www.mongodb.com/docs/manual/reference/operator/aggregation/max/ ; numbers < strings (BSON order)
    const rows: Row[] = [
      { id: 1, j: [{ k: 'b' }, { k: null }, {}, { k: 'a' }] },
      { id: 2, j: [{ k: 5 }, { k: 'a' }] },
      { id: 3, j: [] },
      { id: 4, j: [{ k: null }] },
    ];
    const max = minMaxStage({ s: { $max: '$j.k' } }, copy)!(rows, false, {})!;
    expect(max.rows.map((r) => r.s)).toEqual(['b', 'a', null, null]);
    const min = minMaxStage({ s: { $min: '$j.k' } }, copy)!(rows, false, {})!;
    expect(min.rows.map((r) => r.s)).toEqual(['a', 5, null, null]);
    expect(rows[0]).not.toHaveProperty('s'); // not owned: copied
  });

  it('declines what it does not decide (mingo runs it): a temp that is not an array of objects, other shapes', () => {
    const stage = minMaxStage({ s: { $max: '$j.k' } }, copy)!;
    expect(stage([{ j: 'x' }], true, {})).toBeNull();
    expect(stage([{ j: [[1]] }], true, {})).toBeNull();
    expect(minMaxStage({ s: { $max: '$j' } }, copy)).toBeNull();
    expect(minMaxStage({ s: { $sum: '$j.k' } }, copy)).toBeNull();
  });

  it('$project { _id: 0, k: "$name" }: the value, absent when the field is missing', () => {
    const out = projectRefsStage({ _id: 0, k: '$name' })!([{ _id: 'x', name: 'n' }, { _id: 'y' }, { name: null }], true, {})!;
    expect(out.rows).toEqual([{ k: 'n' }, {}, { k: null }]);
    expect(projectRefsStage({ _id: 0 })).toBeNull();
    expect(projectRefsStage({ k: '$a.b' })).toBeNull();
  });
});
