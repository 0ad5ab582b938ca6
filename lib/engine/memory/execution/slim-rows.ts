/**
 * Rows reduced to the fields the expressions of a stage read, for stages mingo still evaluates (mingo's
 * `$addFields` copies every whole input row, and stored rows are wide): fast-paths/slim-add-fields and the `let`
 * values of fast-paths/indexed-lookup.
 */
import type { Row } from '../../types';

/**
 * The top-level fields an expression reads (`'$<field>'` and `'$<field>.<path>'` strings anywhere in it), or null
 * when it may read the whole document (`$$ROOT`, `$$CURRENT`).
 */
export function referencedFields(expr: unknown): Set<string> | null {
  const fields = new Set<string>();
  const walk = (value: unknown): boolean => {
    if (typeof value === 'string') {
      if (value.startsWith('$$')) return !/^\$\$(ROOT|CURRENT)(\.|$)/.test(value);
      if (value.startsWith('$')) fields.add(value.slice(1).split('.')[0]!);
      return true;
    }
    if (Array.isArray(value)) return value.every(walk);
    if (value !== null && typeof value === 'object') return Object.values(value).every(walk);
    return true;
  };
  return walk(expr) ? fields : null;
}

/** Each row reduced to its own `fields` (the ones it holds). */
export function slimRows(rows: readonly Row[], fields: ReadonlySet<string>): Row[] {
  return rows.map((row) => {
    const out: Row = {};
    for (const field of fields) if (Object.hasOwn(row, field)) out[field] = row[field];
    return out;
  });
}
