import type { Engine, Row } from '../../engine';

const PAGE = 500;

/**
 * Every row of a collection in `id` order, a page at a time (never the whole collection in memory).
 *
 * @example
 * for await (const row of readRows(engine, 'articles')) console.log(row.id);
 */
export async function* readRows(engine: Engine, collection: string, projection?: Record<string, 0 | 1>): AsyncGenerator<Row> {
  let after = -Infinity;
  for (;;) {
    const filter = after === -Infinity ? {} : { id: { $gt: after } };
    const rows = await engine.find(collection, filter, { sort: { id: 1 }, limit: PAGE, ...(projection ? { projection } : {}) });
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id as number;
  }
}
