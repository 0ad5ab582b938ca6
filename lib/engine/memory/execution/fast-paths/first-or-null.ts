import type { Row } from '../../../types';
import { deepCopy } from '../../storage/deep-copy';
import { isObject, isPlainField, onlyKey } from '../eligibility';
import type { StagePath } from '../fast-path';

/** One `<name>: { $ifNull: [{ $arrayElemAt: ['$<field>', 0] }, <fallback>] }` of the stage. */
interface Spec {
  readonly name: string;
  readonly field: string;
  readonly fallback: Row | null;
}

/**
 * `$addFields`/`$set` of `{ <name>: { $ifNull: [{ $arrayElemAt: ['$<field>', 0] }, null | { <counter>: <n> } ] } }`
 * per key (the compiler's firstOrNull of a to-one populate), on rows whose fields are all arrays: the first element,
 * else the fallback (https://www.mongodb.com/docs/manual/reference/operator/aggregation/arrayElemAt/, .../ifNull/).
 * Declines a page holding any row where a field is not an array.
 */
export const firstOrNull: StagePath = {
  name: 'first-or-null',
  kind: 'stage',
  operators: ['$addFields', '$set'],
  accepts(stage, cx) {
    const body = onlyKey(stage, '$addFields') ?? onlyKey(stage, '$set');
    const specs = parseSpecs(body);
    if (!specs) return null;
    const single = specs.length === 1 ? specs[0]! : null;
    const set = (row: Row, s: Spec, value: unknown): void => {
      row[s.name] = value !== undefined && value !== null ? value : s.fallback === null ? null : { ...s.fallback };
    };
    return (rows, owned) => {
      if (!rows.every((row) => specs.every((s) => Array.isArray(row[s.field]) && Object.hasOwn(row, s.field)))) return null;
      const out = owned ? (rows as Row[]) : rows.map((row) => cx.copyRow(row));
      for (const row of out) {
        if (single) {
          // The one spec (the compiler's firstOrNull): no array of values, no closure per row.
          const value = (row[single.field] as unknown[])[0];
          set(row, single, single.name === single.field ? value : deepCopy(value));
          continue;
        }
        // Every value is read before any is set: a spec may name another spec's field.
        const values = specs.map((s) => {
          const value = (row[s.field] as unknown[])[0];
          return s.name === s.field ? value : deepCopy(value);
        });
        specs.forEach((s, i) => set(row, s, values[i]));
      }
      return { rows: out, owned: true };
    };
  },
};

function parseSpecs(body: unknown): Spec[] | null {
  if (!isObject(body) || Object.keys(body).length === 0) return null;
  const specs: Spec[] = [];
  for (const [name, spec] of Object.entries(body)) {
    const args = isObject(spec) && Object.keys(spec).length === 1 ? spec.$ifNull : undefined;
    if (!isPlainField(name) || !Array.isArray(args) || args.length !== 2) return null;
    const [first, fallback] = args as unknown[];
    const elem = isObject(first) && Object.keys(first).length === 1 ? first.$arrayElemAt : undefined;
    if (!Array.isArray(elem) || elem.length !== 2 || elem[1] !== 0 || typeof elem[0] !== 'string') return null;
    const field = elem[0].slice(1);
    if (!elem[0].startsWith('$') || !isPlainField(field)) return null;
    if (fallback !== null && !(isObject(fallback) && Object.entries(fallback).every(([k, v]) => isPlainField(k) && typeof v === 'number' && Number.isFinite(v)))) return null;
    specs.push({ name, field, fallback: fallback as Row | null });
  }
  return specs;
}
