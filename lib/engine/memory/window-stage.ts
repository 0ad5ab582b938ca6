import type { Row } from '../types';
import { isPlainField } from './match-rows';
import { mingoStages } from './mingo-runtime';
import type { RowSet, StageContext, Vars } from './row-stages';
import { firstSorted, planSort } from './sort-rows';

/** A stage that may decline a particular input (null: run it in mingo). */
type PartialStage = (rows: readonly Row[], owned: boolean, vars: Vars) => RowSet | null;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * `{ $setWindowFields: { sortBy, output: { <field>: { $documentNumber: {} }, ... } } }` (no `partitionBy`): the
 * rows in `sortBy` order, the same `$sort` this engine runs, each given its 1-based position in that order
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/documentNumber/). The list pipeline numbers
 * its page rows with it (pipeline/page-result). Any other window runs in mingo.
 *
 * @example
 * windowStage(cx, { sortBy: { id: 1 }, output: { __pos: { $documentNumber: {} } } })
 */
export function windowStage(cx: StageContext, body: unknown): PartialStage | null {
  if (!isObject(body) || !isObject(body.sortBy) || !isObject(body.output)) return null;
  if (Object.keys(body).some((k) => k !== 'sortBy' && k !== 'output')) return null;
  const sortBy = body.sortBy;
  const fields = Object.keys(body.output);
  const numbered = (spec: unknown): boolean => isObject(spec) && Object.keys(spec).length === 1 && isObject(spec.$documentNumber) && Object.keys(spec.$documentNumber).length === 0;
  if (fields.length === 0 || !fields.every((f) => isPlainField(f) && numbered((body.output as Record<string, unknown>)[f]))) return null;
  return (rows, owned) => {
    const plan = planSort(rows, sortBy);
    const sorted = plan ? firstSorted(rows, plan) : mingoStages(cx.options, [{ $sort: sortBy }], rows, {});
    const out = owned ? sorted : sorted.map((row) => cx.copyRow(row));
    out.forEach((row, i) => {
      for (const field of fields) row[field] = i + 1;
    });
    return { rows: out, owned: true };
  };
}
