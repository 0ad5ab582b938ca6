import type { Row } from '../../types';

/** Copiers compiled per list of keys; past this many, rows with a new list are copied by spread. */
const MAX_COPIERS = 512;

type Copier = (row: Row) => Row;

const spread: Copier = (row) => ({ ...row });

/** The copier of each row copied so far (stored rows are never mutated: their keys never change). */
const copiers = new WeakMap<Row, Copier>();
const byKeys = new Map<string, Copier>();

/**
 * `{ ...row }` for a reader (StageContext.copyRow of a read-only context): the same own enumerable keys in the
 * same order and the same values. One spread site sees the rows of every collection and shape, and V8 then
 * copies each through its generic path (about a microsecond for a row of 20 fields, most of a populated list's
 * engine time); so each row is copied by a function compiled for its list of keys (an object literal that reads
 * each key), found by row identity. That is exact for rows whose keys do not change once copied: the stored rows
 * (never mutated: a write replaces the object) and the shared rows the engine hands out (a stage copies a row it
 * does not own before changing it). A row with symbol keys, or a new list of keys past {@link MAX_COPIERS}, is
 * copied by spread.
 *
 * @example
 * const copy = shallowCopy(storedRow); copy.author = joined; // the stored row is unchanged
 */
export function shallowCopy(row: Row): Row {
  let copy = copiers.get(row);
  if (copy === undefined) copiers.set(row, (copy = copierOf(row)));
  return copy(row);
}

function copierOf(row: Row): Copier {
  if (Object.getOwnPropertySymbols(row).length > 0) return spread;
  const keys = Object.keys(row);
  const signature = keys.join('\u0000');
  let copy = byKeys.get(signature);
  if (copy === undefined) {
    if (byKeys.size >= MAX_COPIERS) return spread;
    byKeys.set(signature, (copy = compileCopier(keys)));
  }
  return copy;
}

/**
 * `(row) => ({ "a": row["a"], ... })`: the keys are JSON string literals (valid JavaScript string literals);
 * `__proto__` is a computed key, as a literal one would set the prototype instead of defining a property.
 */
function compileCopier(keys: readonly string[]): Copier {
  const body = keys.map((key) => {
    const literal = JSON.stringify(key);
    return `${key === '__proto__' ? `[${literal}]` : literal}: row[${literal}]`;
  });
  return new Function('row', `'use strict'; return { ${body.join(', ')} };`) as Copier;
}
