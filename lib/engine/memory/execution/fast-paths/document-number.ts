import type { Row } from '../../../types';
import { mingoStages } from '../../semantics/mingo-runtime';
import { isPlainField, onlyKey } from '../eligibility';
import { documentNumberWindow } from '../../semantics/manual-stages';
import type { StagePath } from '../fast-path';
import { shallowCopy } from '../shallow-copy';
import type { PartialStage, StageContext } from '../stage-context';
import { firstSorted, planSort, sortedBy } from '../sort-rows';
import { BoundedMemo } from '../../../../util/bounded-memo';
import { engineMemos, OBJECT_BYTES, SLOT_BYTES } from '../memo-budget';

/** The path: {@link windowStage} of a `$setWindowFields` stage. */
export const documentNumber: StagePath = {
  name: 'document-number',
  kind: 'stage',
  operators: ['$setWindowFields'],
  accepts(stage, cx) {
    const body = onlyKey(stage, '$setWindowFields');
    return body === undefined ? null : windowStage(cx, body);
  },
};

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
  const window = documentNumberWindow(body);
  if (!window || !window.fields.every(isPlainField)) return null;
  const { sortBy, fields } = window;
  const fieldsKey = fields.join(',');
  return (rows, owned) => {
    const inOrder = sortedBy(rows) === sortBy;
    const plan = inOrder ? null : planSort(rows, sortBy);
    const sorted = inOrder ? (rows as Row[]) : plan ? firstSorted(rows, plan) : mingoStages(cx.options, [{ $sort: sortBy }], rows, {});
    if (!owned && cx.readOnly) return { rows: sorted.map((row, i) => numberedCopy(row, fields, fieldsKey, i + 1)), owned: false };
    const out = owned ? sorted : sorted.map((row) => cx.copyRow(row));
    out.forEach((row, i) => {
      for (const field of fields) row[field] = i + 1;
    });
    return { rows: out, owned: true };
  };
}

/**
 * Numbered shallow copies of stored rows, by stored row (never mutated: a write replaces it) and number, within
 * the engine's memo budget: a copy holds its own slots (its values are the stored row's).
 */
const numbered = new BoundedMemo<Row, Map<string, Row>>(engineMemos, (copies) => OBJECT_BYTES + copies.size * copyBytes(copies.values().next().value));

/** The bytes a shallow copy of a row is counted for: a header and a slot per key, and its place in the Map. */
const copyBytes = (copy: Row | undefined): number => (copy === undefined ? 0 : 2 * OBJECT_BYTES + 2 * SLOT_BYTES * Object.keys(copy).length);

/**
 * `{ ...row, [field]: n }` for a reader (read-only results), the same object again for the same stored row,
 * fields and number: a page read again hands out the same row objects, so what the response writer keeps by
 * row identity (lib/format/row-json) still applies. Not owned: a later stage copies it before changing it.
 */
function numberedCopy(row: Row, fields: readonly string[], fieldsKey: string, n: number): Row {
  const key = `${n}|${fieldsKey}`;
  let byKey = numbered.get(row);
  const found = byKey?.get(key);
  if (found) return found;
  const copy = shallowCopy(row);
  for (const field of fields) copy[field] = n;
  if (!byKey) byKey = numbered.set(row, new Map());
  if (byKey.size >= 8) byKey.clear();
  byKey.set(key, copy);
  numbered.grew(copyBytes(copy));
  return copy;
}
