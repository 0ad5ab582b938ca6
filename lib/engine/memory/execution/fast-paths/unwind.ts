import type { Row } from '../../../types';
import { isObject, isPlainField, onlyKey } from '../eligibility';
import type { StagePath } from '../fast-path';
import type { RowSet, StageContext } from '../stage-context';

/** The path: {@link unwindStage} of an `$unwind` stage. */
export const unwind: StagePath = {
  name: 'unwind',
  kind: 'stage',
  operators: ['$unwind'],
  accepts(stage, cx) {
    const body = onlyKey(stage, '$unwind');
    return body === undefined ? null : unwindStage(cx, body);
  },
};

/**
 * `$unwind` of a top-level field, `'$<field>'` or `{ path: '$<field>', includeArrayIndex?: '<name>' }`, with the
 * manual's semantics (https://www.mongodb.com/docs/manual/reference/operator/aggregation/unwind/): one document
 * per element of an array value, with the field set to the element (and `<name>` to its index, a long on MongoDB);
 * a value that is not an array, null or missing is one document as it is (its index null); null, missing and an
 * empty array give none. Each document out is a copy of its row (StageContext.copyRow). Null (mingo runs it) for another shape:
 * a dotted path, `preserveNullAndEmptyArrays`.
 *
 * @example
 * unwindStage(cx, { path: '$j', includeArrayIndex: 'n' })!([{ p: 1, j: [[5], [6]] }], false, {})
 * // rows: [{ p: 1, j: [5], n: 0 }, { p: 1, j: [6], n: 1 }]
 */
export function unwindStage(cx: StageContext, body: unknown): ((rows: readonly Row[], owned: boolean) => RowSet) | null {
  const spec = typeof body === 'string' ? { path: body } : body;
  if (!isObject(spec) || typeof spec.path !== 'string' || !spec.path.startsWith('$')) return null;
  if (!Object.keys(spec).every((k) => k === 'path' || k === 'includeArrayIndex')) return null;
  const field = spec.path.slice(1);
  const index = spec.includeArrayIndex;
  if (!isPlainField(field) || (index !== undefined && (typeof index !== 'string' || !isPlainField(index) || index === field))) return null;
  return (rows) => {
    const out: Row[] = [];
    for (const row of rows) {
      const value = Object.hasOwn(row, field) ? row[field] : undefined;
      if (value === undefined || value === null) continue;
      if (!Array.isArray(value)) {
        out.push(cx.copyRow(index === undefined ? row : { ...row, [index]: null }));
        continue;
      }
      // Each copy holds its one element (copied with it unless the caller only reads), never the whole array.
      value.forEach((element: unknown, i) => out.push(cx.copyRow(index === undefined ? { ...row, [field]: element } : { ...row, [field]: element, [index]: i })));
    }
    return { rows: out, owned: true };
  };
}
