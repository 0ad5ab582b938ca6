import type { Engine } from '../engine';

/**
 * Where an import keeps what the export holds outside the model, line by line as it came (`{ seq, stage, line }`):
 * Strapi's own entities (users-permissions roles and permissions, i18n locales, media folders, admin types), the
 * links between them, `schemas`, `configuration` and `metadata`. A later export writes them back, so that moving a
 * project back to Strapi loses none of it. Nothing else reads them.
 */
export const KEPT_COLLECTION = '_strapi_transfer';

const PAGE = 1000;

/**
 * The kept lines of one stage, in their import order, read a page at a time.
 *
 * @example
 * for await (const value of readKept(engine, 'schemas')) console.log(value);
 */
export async function* readKept(engine: Engine, stage: string): AsyncGenerator<unknown> {
  let after = 0;
  for (;;) {
    const rows = await engine.find(KEPT_COLLECTION, { stage, seq: { $gt: after } }, { sort: { seq: 1 }, limit: PAGE });
    for (const row of rows) yield JSON.parse(row.line as string) as unknown;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.seq as number;
  }
}
