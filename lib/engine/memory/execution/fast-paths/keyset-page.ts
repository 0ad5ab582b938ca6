import type { Row } from '../../../types';
import { isLimit, isObject, onlyKey } from '../eligibility';
import type { PipelinePath } from '../fast-path';
import { compileRowTest } from '../match-rows';
import { firstSorted, markSortedBy, planSort, uniformValues } from '../sort-rows';
import { stableId } from '../stable-arrays';

/**
 * A cursor page (pipeline/compile-find, lib/query/parse-cursor): `$match` of a keyset range, `$sort`, `$limit`, on
 * a kept match result (a read scope: stable-arrays). The range must be exactly the one the compiler emits for this
 * `$sort`: `$or: [{ a: { $gt: va } }, { $and: [{ a: { $eq: va } }, { b: { $lt: vb } }] }, ...]` (a descending key's
 * `$lt` may be `$or`ed with `$eq: null`), over top-level keys whose values, in every row and in the range, are all
 * numbers or all strings without code units from U+D800 up (sort-rows' uniformValues, checked once per kept
 * result): the query operators then order the values as `$sort` does, and the rows the range matches are the
 * suffix of the sorted rows after the cursor's position. A binary search finds where it starts; the page is the
 * `$limit` rows from there (the sorted order is planned once per kept result and kept across writes, carryPlans):
 * page 1,000 costs what page 2 costs. Anything else (nulls, mixed types, another filter) runs as it is.
 *
 * @example
 * keysetPage.accepts([{ $match: scope }, { $match: { $or: [{ id: { $gt: 40 } }] } }, { $sort: { id: 1 } }, { $limit: 11 }], 1, cx)
 */
export const keysetPage: PipelinePath = {
  name: 'keyset-page',
  kind: 'pipeline',
  operators: ['$match'],
  accepts(pipeline, at, cx) {
    const filter = onlyKey(pipeline[at], '$match');
    const spec = onlyKey(pipeline[at + 1], '$sort');
    const limit = onlyKey(pipeline[at + 2], '$limit');
    if (at === 0 || !isObject(filter) || !isObject(spec) || !isLimit(limit)) return null;
    const values = keysetValues(filter, spec);
    if (!values) return null;
    const test = compileRowTest(filter, cx.options);
    const keys = Object.keys(spec);
    return {
      next: at + 3,
      run: (input) => {
        const rows = input.rows;
        if (stableId(rows) === undefined || !uniformKeys(rows, keys, values)) return null;
        const plan = planSort(rows, spec);
        if (!plan) return null;
        const ordered: readonly Row[] = plan.sorted ? rows : firstSorted(rows, plan);
        const start = firstPassing(ordered, test);
        const page = ordered.slice(start, start + limit);
        markSortedBy(page, spec);
        return { rows: page, owned: false };
      },
    };
  },
};

/** Per kept row array and key list: whether every row holds uniform values (uniformValues) of each key. */
const uniform = new WeakMap<readonly Row[], Map<string, boolean>>();

function uniformKeys(rows: readonly Row[], keys: readonly string[], values: readonly unknown[]): boolean {
  if (rows.length === 0) return true;
  let byKeys = uniform.get(rows);
  if (!byKeys) uniform.set(rows, (byKeys = new Map()));
  const name = keys.join('\u0000');
  if (!byKeys.has(name)) byKeys.set(name, keys.every((key) => uniformValues(rows, key)));
  if (!byKeys.get(name)) return false;
  // The range's values are of the rows' kind (a number for numbers, a string without high code units for strings).
  return keys.every((key, i) => uniformValues([{ [key]: values[i] }], key, typeof rows[0]![key]));
}

/**
 * The values of a keyset range of `spec` (`filter` exactly as the compiler emits it, see keysetPage), or null.
 * Branch i: the keys before i equal to their values (`$and`), key i after its value (`$gt` ascending, `$lt`
 * descending). Keys must be top-level fields.
 */
function keysetValues(filter: Record<string, unknown>, spec: Record<string, unknown>): unknown[] | null {
  const keys = Object.keys(spec);
  const branches = onlyKey(filter, '$or');
  if (!Array.isArray(branches) || branches.length !== keys.length || keys.some((k) => k.includes('.') || k.startsWith('$'))) return null;
  const values: unknown[] = [];
  for (const [i, key] of keys.entries()) {
    const dir = spec[key];
    const branch: unknown = branches[i];
    const parts = i === 0 ? [branch] : onlyKey(branch, '$and');
    if (!Array.isArray(parts) || parts.length !== i + 1 || (dir !== 1 && dir !== -1)) return null;
    for (let j = 0; j < i; j++) if (!isCondition(parts[j], keys[j]!, '$eq', values[j])) return null;
    const after = afterValue(parts[i], key, dir);
    if (after === undefined) return null;
    values.push(after);
  }
  return values;
}

/** `{ key: { op: value } }` exactly. */
function isCondition(part: unknown, key: string, op: string, value: unknown): boolean {
  const condition = onlyKey(part, key);
  return isObject(condition) && Object.keys(condition).length === 1 && Object.hasOwn(condition, op) && condition[op] === value;
}

/** The value of `{ key: { $gt: v } }` (ascending) or `{ key: { $lt: v } }` / `{ $or: [that, { key: { $eq: null } }] }` (descending). */
function afterValue(part: unknown, key: string, dir: 1 | -1): unknown {
  const op = dir === 1 ? '$gt' : '$lt';
  const or = dir === -1 ? onlyKey(part, '$or') : undefined;
  const main: unknown = Array.isArray(or) && or.length === 2 && isCondition(or[1], key, '$eq', null) ? or[0] : part;
  const condition = onlyKey(main, key);
  if (!isObject(condition) || Object.keys(condition).length !== 1 || !Object.hasOwn(condition, op)) return undefined;
  const value = condition[op];
  return typeof value === 'number' || typeof value === 'string' ? value : undefined;
}

/** The first index whose row passes `test`, for rows where the passing ones are a suffix (binary search). */
function firstPassing(rows: readonly Row[], test: (row: Row) => boolean): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(rows[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
