/**
 * Pipeline stages where mingo's answer is not MongoDB's, as the manual defines them: installed in the mingo
 * context (mingo-runtime's createContext), so that the general path, every stage mingo runs, gives MongoDB's answer
 * with every fast path switched off.
 */
import type { Row } from '../../types';
import { compareBson } from './bson-compare';
import { Lazy, pipelineOperators, type Iterator, type Options } from './mingo-runtime';
import { sortKey } from './sort-key';

/**
 * `$sort` in MongoDB's order (https://www.mongodb.com/docs/manual/reference/method/cursor.sort/ "Ascending/
 * Descending Sort", .../reference/bson-type-comparison-order/): an array field sorts by its smallest element
 * ascending and its largest descending (sort-key), values of different types in the BSON order (bson-compare),
 * a stable sort (ties keep their input order, which is natural order for the compiler's pipelines). mingo compares
 * arrays and mixed types otherwise. A spec that is not `{ <path>: 1 | -1, ... }` (`$meta`, an empty or `$` path)
 * is left to mingo's own `$sort`.
 *
 * @example
 * manualSort(Lazy([{ t: ['b', 'c'] }, { t: 'a' }]), { t: -1 }, options) // [{ t: ['b', 'c'] }, { t: 'a' }]
 */
export function manualSort(coll: Iterator, spec: Record<string, unknown>, options: Options): Iterator {
  const paths = sortPaths(spec);
  if (!paths) return pipelineOperators.$sort(coll, spec as never, options);
  const rows = coll.collect() as Row[];
  const keyed = rows.map((row, at) => ({ row, at, keys: paths.map(([path, dir]) => sortKey(row, path, dir)) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < paths.length; i++) {
      const c = compareBson(a.keys[i], b.keys[i]);
      if (c !== 0) return c * paths[i]![1];
    }
    return a.at - b.at;
  });
  return Lazy(keyed.map((k) => k.row));
}

/**
 * The `[path parts, direction]` of each key of a plain `$sort` document (`{ <path>: 1 | -1, ... }`), or null for any
 * other document (`$meta`, an empty or `$` path): the sorts MongoDB's order is defined for here, on the general path
 * and in execution/sort-rows alike.
 *
 * @example
 * sortPaths({ 'seo.title': -1, id: 1 }) // [[['seo', 'title'], -1], [['id'], 1]]
 */
export function sortPaths(spec: Record<string, unknown>): [string[], 1 | -1][] | null {
  const keys = Object.keys(spec);
  if (keys.length === 0) return null;
  const out: [string[], 1 | -1][] = [];
  for (const key of keys) {
    const dir = spec[key];
    if ((dir !== 1 && dir !== -1) || key.startsWith('$') || key.split('.').includes('')) return null;
    out.push([key.split('.'), dir]);
  }
  return out;
}

/**
 * `$count`: one document `{ <name>: n }` for n > 0 documents in, and no document at all for none
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/count/: "$count does not return a document
 * if the input is empty"; mingo outputs a count of 0).
 *
 * @example
 * manualCount(Lazy([]), 'n', options).collect() // []
 */
export function manualCount(coll: Iterator, name: string, options: Options): Iterator {
  const counted = pipelineOperators.$count(coll, name as never, options).collect() as Row[];
  return Lazy(counted.filter((row) => typeof row[name] === 'number' && (row[name] as number) > 0));
}

/**
 * `$setWindowFields` whose every output is `$documentNumber` (no `partitionBy`): the documents in `sortBy` order
 * (MongoDB's, {@link manualSort}), each given its 1-based position in it
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/documentNumber/). mingo evaluates this
 * operator through `$function`, which the engine never enables (`scriptEnabled: false`); any other window is
 * mingo's own.
 *
 * @example
 * manualSetWindowFields(Lazy(rows), { sortBy: { id: 1 }, output: { n: { $documentNumber: {} } } }, options)
 */
export function manualSetWindowFields(coll: Iterator, expr: Record<string, unknown>, options: Options): Iterator {
  const window = documentNumberWindow(expr);
  if (!window || sortPaths(window.sortBy) === null) return pipelineOperators.$setWindowFields(coll, expr as never, options);
  const sorted = manualSort(coll, window.sortBy, options).collect() as Row[];
  return Lazy(sorted.map((row, i) => {
    const out: Row = { ...row };
    for (const field of window.fields) out[field] = i + 1;
    return out;
  }));
}

/**
 * The `sortBy` and output fields of a `$setWindowFields` body `{ sortBy, output: { <field>: { $documentNumber: {} },
 * ... } }` (nothing else: no `partitionBy`, output fields without `$` or `.`), else null. The general path
 * ({@link manualSetWindowFields}) and execution/fast-paths/document-number read the stage with it.
 *
 * @example
 * documentNumberWindow({ sortBy: { id: 1 }, output: { n: { $documentNumber: {} } } }) // { sortBy: { id: 1 }, fields: ['n'] }
 */
export function documentNumberWindow(expr: unknown): { sortBy: Record<string, unknown>; fields: string[] } | null {
  if (!isPlainObject(expr) || !isPlainObject(expr.sortBy) || !isPlainObject(expr.output)) return null;
  if (Object.keys(expr).some((k) => k !== 'sortBy' && k !== 'output')) return null;
  const output = expr.output;
  const fields = Object.keys(output);
  const numbered = (spec: unknown): boolean => isPlainObject(spec) && Object.keys(spec).length === 1 && isPlainObject(spec.$documentNumber) && Object.keys(spec.$documentNumber).length === 0;
  if (fields.length === 0 || !fields.every((f) => !f.startsWith('$') && !f.includes('.') && numbered(output[f]))) return null;
  return { sortBy: expr.sortBy, fields };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
