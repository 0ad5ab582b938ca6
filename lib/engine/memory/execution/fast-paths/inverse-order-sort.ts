import type { Pipeline, Row } from '../../../types';
import { isNumericId, isObject, onlyKey, type LetRef } from '../eligibility';

/** Orders the joined rows of one source row as the three stages do, or null: a value only mingo decides exactly. */
export type InverseOrderSort = (source: Row, joined: Row[]) => Row[] | null;

/** The expression the compiler emits for the position of a to-many owner row (pipeline/inverse-order-stages). */
const positionExpression = (path: string, variable: string): unknown => ({
  $max: { $map: { input: { $filter: { input: `$${path}`, cond: { $eq: ['$$this.d', `$$${variable}`] } } }, in: '$$this.n' } },
});

/**
 * The kept order of a to-many `mappedBy` side as the compiler emits it (pipeline/inverse-order-stages), at
 * `pipeline[at]`: `{ $addFields: { T: { $max: { $map: { input: { $filter: { input: '$<path>', cond: { $eq:
 * ['$$this.d', '$$<var>'] } } }, in: '$$this.n' } } } } }`, `{ $sort: { T: 1, id: 1 } }`, `{ $unset: ['T'] }`, with
 * `<var>` a direct `let` reference. Gives the sort the three stages make (T never reaches the rows): per joined row
 * the largest finite number `n` of the entries of the array at `<path>` whose `d` equals the variable, null when
 * there is none or `<path>` is null or missing; null first, then ascending, ties by id. A value the manual answers
 * otherwise or with an error ($filter of a non-array, an array crossed on the path, an `n` that is not a finite
 * number, a variable that is not a string, an id that is not a finite number) makes the sort answer null, and the
 * general path runs. Null when the stages are not this shape.
 *
 * @example
 * planInverseOrderSort(pipeline, 1, new Map([['owner', { field: 'documentId', orEmpty: false }]]))
 */
export function planInverseOrderSort(pipeline: Pipeline, at: number, refs: ReadonlyMap<string, LetRef>): { sort: InverseOrderSort; stages: number } | null {
  const add = onlyKey(pipeline[at], '$addFields');
  if (!isObject(add) || Object.keys(add).length !== 1) return null;
  const temp = Object.keys(add)[0]!;
  const spec = add[temp] as { $max?: { $map?: { input?: { $filter?: { input?: unknown; cond?: { $eq?: unknown[] } } } } } };
  const filter = spec?.$max?.$map?.input?.$filter;
  const input = filter?.input;
  const variableRef = filter?.cond?.$eq?.[1];
  if (typeof input !== 'string' || !input.startsWith('$') || input.startsWith('$$') || typeof variableRef !== 'string' || !variableRef.startsWith('$$')) return null;
  const path = input.slice(1);
  const variable = variableRef.slice(2);
  const ref = refs.get(variable);
  if (!ref || ref.orEmpty || JSON.stringify(spec) !== JSON.stringify(positionExpression(path, variable))) return null;
  if (JSON.stringify(pipeline[at + 1]) !== JSON.stringify({ $sort: { [temp]: 1, id: 1 } })) return null;
  if (JSON.stringify(pipeline[at + 2]) !== JSON.stringify({ $unset: [temp] })) return null;
  const segments = path.split('.');
  return {
    stages: 3,
    sort: (source, joined) => {
      const owner = Object.hasOwn(source, ref.field) ? source[ref.field] : undefined;
      if (typeof owner !== 'string') return null;
      const keyed: { row: Row; key: number | null }[] = [];
      for (const row of joined) {
        const key = positionOf(row, segments, owner);
        if (key === undefined || !isNumericId(row.id)) return null;
        keyed.push({ row, key });
      }
      keyed.sort((a, b) => (a.key === null ? (b.key === null ? 0 : -1) : b.key === null ? 1 : a.key - b.key) || (a.row.id as number) - (b.row.id as number));
      return keyed.map((k) => k.row);
    },
  };
}

/** The position of `row` for `owner` (null: none), or undefined when only the general path answers exactly. */
function positionOf(row: Row, segments: readonly string[], owner: string): number | null | undefined {
  let value: unknown = row;
  for (const segment of segments) {
    if (value === null || value === undefined) return null;
    if (!isObject(value)) return undefined; // an array crossed (the manual maps it) or a scalar: the general path
    value = Object.hasOwn(value, segment) ? value[segment] : undefined;
  }
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) return undefined; // $filter of a non-array is an error in MongoDB
  let max: number | null = null;
  for (const entry of value) {
    if (!isObject(entry) || entry.d !== owner) continue;
    const n = entry.n;
    if (n === undefined || n === null) continue;
    if (typeof n !== 'number' || !Number.isFinite(n)) return undefined;
    max = max === null || n > max ? n : max;
  }
  return max;
}
