import { Query } from 'mingo';
import { fieldCondition } from '../../../lib/engine/memory/execution/field-conditions';

/**
 * The filter compiler's `$in` / `$nin` / `$regex` conditions, tested without mingo, give the manual's answers
 * (https://www.mongodb.com/docs/manual/reference/operator/query/in/, .../nin/, .../regex/): the ones mingo gives
 * on these values (scalars, arrays of them, null, missing; 1 and '1' differ).
 */
const rows: Record<string, unknown>[] = [
  {}, { f: null }, { f: 'a' }, { f: 'A' }, { f: 'b' }, { f: 1 }, { f: '1' }, { f: true }, { f: ['a', 'x'] }, { f: ['x', null] },
  { f: [] }, { f: [['a']] }, { f: { a: 1 } }, { f: 'xaY' }, { f: 2.5 },
];

describe('memory engine: field conditions without mingo', () => {
  it.each([
    { $in: ['a', 1, true] },
    { $in: ['1', 2.5] },
    { $nin: ['a', 1] },
    { $nin: ['a', 1], $ne: null },
    { $regex: 'a', $options: 'i' },
    { $regex: '^a$', $options: '' },
    { $not: { $regex: 'a', $options: 'i' } },
    { $not: { $regex: 'a', $options: 'i' }, $ne: null },
  ])('%j matches the rows mingo matches', (condition) => {
    const test = fieldCondition('f', condition);
    expect(test).not.toBeNull();
    const query = new Query({ f: condition });
    expect(rows.map((r) => test!(r))).toEqual(rows.map((r) => query.test(r)));
  });

  it.each([{ $in: [null] }, { $in: [{ a: 1 }] }, { $nin: ['a'], $ne: 'x' }, { $regex: 'a', $options: 'm' }, { $gt: 1 }, 'a'])('leaves %j to mingo', (condition) => {
    expect(fieldCondition('f', condition)).toBeNull();
  });
});
