import type { PopulateMap } from '../query/types';
import { answersTotals, POPULATE_META_FIELD } from './compile-populate-page';

/** Fields a row always keeps, whatever `fields` asks: the formatter and later stages need them. */
export const ALWAYS_KEPT = ['id', 'documentId', 'locale', '_status', 'publishedAt'] as const;

/**
 * The `$project` stage for `fields` (null = every field: no stage). Keeps {@link ALWAYS_KEPT}, every
 * populated attribute, `meta` when a populate answers totals there (`withCount`), and the internal fields in
 * `keep` (a list page's `__pos`).
 *
 * @example
 * compileProjection(['title'], {}) // { $project: { id: 1, documentId: 1, locale: 1, _status: 1, publishedAt: 1, title: 1 } }
 */
export function compileProjection(fields: readonly string[] | null, populate: PopulateMap, keep: readonly string[] = []): Record<string, unknown> | undefined {
  if (fields === null) return undefined;
  const project: Record<string, 1> = {};
  const totals = answersTotals(populate) ? [POPULATE_META_FIELD] : [];
  for (const name of [...ALWAYS_KEPT, ...fields, ...Object.keys(populate), ...totals, ...keep]) project[name] = 1;
  return { $project: project };
}
