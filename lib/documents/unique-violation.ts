import { DuplicateKeyError } from '../engine';
import { uniqueIndexAttribute } from '../engine/indexes';
import type { ContentType } from '../schema';
import { uniqueError } from '../schema/validate-body';

type Row = Record<string, unknown>;

/**
 * Turns a DuplicateKeyError on one of the type's unique-attribute indexes (`unique_<attribute>`, see
 * `engine/indexes.ts`) into the 400 a failed unique check answers (`This attribute must be unique`, with the
 * value written in `row`). The check before the write catches every clash it can see; the index catches the
 * rest (two concurrent writes, a publish). Any other error is returned as is.
 *
 * @example
 * try { ... } catch (error) { throw uniqueViolation(ct, error, row) }
 */
export function uniqueViolation(ct: ContentType, error: unknown, row: Row | undefined): unknown {
  if (!(error instanceof DuplicateKeyError) || error.collection !== ct.collectionName) return error;
  const name = uniqueIndexAttribute(error.index);
  if (name === undefined || ct.attributes[name]?.kind !== 'scalar') return error;
  return uniqueError([name], row?.[name] ?? null);
}

/**
 * Whether `error` is the clash of two concurrent writes of one document: both created the same
 * (documentId, locale, status) row. The loser runs again and then finds the row (an update).
 *
 * @example
 * if (isDocumentClash(ct, error)) continue;
 */
export function isDocumentClash(ct: ContentType, error: unknown): boolean {
  return error instanceof DuplicateKeyError && error.collection === ct.collectionName && error.index === 'document_locale_status';
}
