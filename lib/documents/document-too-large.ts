import { DocumentTooLargeError } from '../engine';
import { ValidationError } from '../errors';

/**
 * Runs a read and answers a result document over the engine's document size limit (MongoDB's 16 MB
 * BSONObjectTooLarge, https://www.mongodb.com/docs/manual/reference/limits/) as a 400 ValidationError: the
 * request is well-formed, but asks for a row whose populated relations and components make a document MongoDB
 * cannot return; the client fixes it by asking for less (a 500 would say the server failed, and be retried).
 * Each list row is its own document (pipeline/compile-find), so the page size never matters, only one row.
 *
 * @example
 * const rows = await withinDocumentLimit(() => engine.aggregate('articles', pipeline));
 */
export async function withinDocumentLimit<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof DocumentTooLargeError)) throw error;
    const MiB = 1024 * 1024;
    const size = error.limit % MiB === 0 ? `${error.limit / MiB} MB` : `${error.limit} bytes`;
    throw new ValidationError(
      `The response is too large: one entry with its populated relations and components is over the database's document size limit (${size}). Populate fewer relations or select fewer fields.`,
      { limit: error.limit },
    );
  }
}
