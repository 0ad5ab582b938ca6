import { DocumentTooLargeError, type Row } from '../../types';

type CalculateObjectSize = (doc: Row) => number;

let calculate: CalculateObjectSize | undefined;

/**
 * `bson`'s `calculateObjectSize`, loaded on first use: `bson` is an optional peer dependency (the MongoDB driver
 * depends on it, so a project using `mongoEngine` has it), needed only by the `maxDocumentBytes` option.
 */
function calculator(): CalculateObjectSize {
  if (!calculate) {
    try {
      calculate = (require('bson') as { calculateObjectSize: CalculateObjectSize }).calculateObjectSize;
    } catch (error) {
      throw new Error(`memoryEngine's maxDocumentBytes needs the optional peer dependency "bson" (npm install bson): ${String(error)}`);
    }
  }
  return calculate;
}

/**
 * Checks the option at start: a positive integer (bytes), and `bson` can be loaded.
 *
 * @example
 * checkDocumentLimit(MONGODB_MAX_DOCUMENT_BYTES)
 */
export function checkDocumentLimit(limit: number | undefined): void {
  if (limit === undefined) return;
  if (!Number.isSafeInteger(limit) || limit <= 0) throw new TypeError(`memoryEngine: maxDocumentBytes must be a positive integer, got ${String(limit)}`);
  calculator();
}

/**
 * Fails as MongoDB does (BSONObjectTooLarge, code 10334) when a result document's BSON size is over `limit`.
 *
 * @example
 * assertDocumentSizes('articles', rows, MONGODB_MAX_DOCUMENT_BYTES)
 */
export function assertDocumentSizes(collection: string, rows: readonly Row[], limit: number): void {
  const size = calculator();
  for (const row of rows) {
    const bytes = size(row);
    if (bytes > limit) throw new DocumentTooLargeError(collection, bytes, limit);
  }
}
