import type { PopulateMap } from '../query/types';
import { writeJson } from './json-value';
import type { ValueWrite } from './row-json';

type Row = Record<string, unknown>;

/** The relations of a populate level that answer their totals (`withCount`), in populate order. */
function totalNames(populate: PopulateMap): string[] {
  return Object.keys(populate).filter((name) => populate[name]!.withCount === true);
}

/**
 * The `meta` of a populated row whose populate asks totals (`populate[<rel>][withCount]=true`): `{ <rel>: { count } }`
 * for each of them, from the row's stored `meta` that pipeline/compile-populate-page computed (`{ count: 0 }` when
 * absent); undefined when none is asked (no `meta` key then).
 *
 * @example
 * populateTotals({ meta: { articles: { count: 12 } } }, { articles: node }) // { articles: { count: 12 } }
 */
export function populateTotals(row: Row, populate: PopulateMap): Row | undefined {
  const names = totalNames(populate);
  if (names.length === 0) return undefined;
  const stored = row.meta !== null && typeof row.meta === 'object' ? (row.meta as Row) : {};
  const out: Row = {};
  for (const name of names) {
    const total = stored[name] as { count?: unknown } | undefined;
    out[name] = { count: typeof total?.count === 'number' ? total.count : 0 };
  }
  return out;
}

/**
 * {@link populateTotals} as a writer of compile-document-json (the value is the row's stored `meta`); undefined
 * when the populate asks no total.
 *
 * @example
 * totalsJson({ articles: node })?.(row.meta, out)
 */
export function totalsJson(populate: PopulateMap): ValueWrite | undefined {
  if (totalNames(populate).length === 0) return undefined;
  return (value, out) => {
    writeJson(populateTotals({ meta: value }, populate), out);
    return true;
  };
}
