/**
 * Stages mingo still evaluates, run on rows reduced to the fields their expressions read (mingo's `$addFields`
 * copies every whole input row, and stored rows are wide).
 */
import type { Row } from '../../types';
import { isPlainField } from './match-rows';
import { mingoStages } from '../semantics/mingo-runtime';
import type { StageContext, StageFn } from './row-stages';

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

/**
 * `$addFields`/`$set` of top-level fields that mingo evaluates (the component and dynamic-zone stages of a
 * populate: `$map`, `$switch`, `$mergeObjects`...), run on each row reduced to the fields the expressions read
 * (mingo's `$addFields` copies every input row whole), then applied to a copy of the row as mingo applies them: a
 * value sets the field (in its place, or last), undefined removes it. Null when a key is not a plain field or
 * the expressions may read the whole document (`$$ROOT`).
 */
export function slimAddFields(cx: StageContext, stage: Record<string, unknown>, body: unknown): StageFn | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const names = Object.keys(body);
  const fields = referencedFields(body);
  if (names.length === 0 || !names.every(isPlainField) || !fields) return null;
  return (rows, owned, vars) => {
    const computed = mingoStages(cx.options, [stage], slimRows(rows, fields), vars);
    const out = rows.map((row, i) => {
      const target = owned ? (row as Row) : cx.copyRow(row);
      const values = computed[i]!;
      for (const name of names) {
        if (Object.hasOwn(values, name)) target[name] = values[name];
        else delete target[name];
      }
      return target;
    });
    return { rows: out, owned: false };
  };
}

