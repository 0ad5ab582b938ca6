import { calculateObjectSize } from 'bson';
import { DocumentTooLargeError, memoryEngine, MONGODB_MAX_DOCUMENT_BYTES, type Engine, type Row } from '../../../lib/engine';
import { compileFind, readPage } from '../../../lib/pipeline';
import { article, query, registry } from '../../unit/pipeline/fixtures';

/**
 * `maxDocumentBytes` enforces MongoDB's 16 MiB BSON document limit (https://www.mongodb.com/docs/manual/reference/limits/)
 * on every aggregate result document, measured as the driver does (bson's calculateObjectSize).
 */
describe('memoryEngine maxDocumentBytes', () => {
  let engine: Engine;
  const ROWS = 100;
  const text = (i: number): string => String.fromCharCode(97 + (i % 26)).repeat(300 * 1024);

  beforeAll(async () => {
    engine = memoryEngine({ maxDocumentBytes: MONGODB_MAX_DOCUMENT_BYTES });
    await engine.insertMany('articles', Array.from({ length: ROWS }, (_, i): Row => ({
      id: i + 1, documentId: `d${i}`, _status: 'published', locale: 'en', publishedAt: '2024-01-01T00:00:00.000Z', title: `t${i}`, content: text(i),
    })));
  });
  afterAll(() => engine.close());

  it('a page of 100 rows of ~300 KB passes with one document per row; the $facet shape fails as on MongoDB', async () => {
    const q = query(article, { pagination: { kind: 'page', page: 1, pageSize: ROWS, withCount: true } });
    const docs = await engine.aggregate('articles', compileFind(registry, article, q));
    const { rows, total } = readPage(docs, true);
    expect([rows.length, total]).toEqual([ROWS, ROWS]);
    expect(Math.max(...docs.map((d) => calculateObjectSize(d)))).toBeLessThan(MONGODB_MAX_DOCUMENT_BYTES);
    // The old shape: the whole page in one $facet document, over 16 MiB.
    const facet = [{ $match: { _status: 'published' } }, { $sort: { id: 1 } }, { $facet: { data: [{ $skip: 0 }, { $limit: ROWS }], total: [{ $count: 'count' }] } }];
    const error = await engine.aggregate('articles', facet).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentTooLargeError);
    expect((error as DocumentTooLargeError).bytes).toBeGreaterThan(ROWS * 300 * 1024);
    expect((error as DocumentTooLargeError).limit).toBe(16 * 1024 * 1024);
  });

  it('the limit is exact (BSON size, not JSON length); off by default; a bad option is refused', async () => {
    const row = { _id: 'x', s: 'é'.repeat(1000) };
    const size = calculateObjectSize(row);
    const at = memoryEngine({ maxDocumentBytes: size });
    await at.insertMany('c', [row]);
    await expect(at.aggregate('c', [])).resolves.toHaveLength(1);
    const below = memoryEngine({ maxDocumentBytes: size - 1 });
    await below.insertMany('c', [row]);
    await expect(below.aggregate('c', [])).rejects.toBeInstanceOf(DocumentTooLargeError);
    const off = memoryEngine();
    await off.insertMany('c', [{ _id: 'y', s: 'x'.repeat(17 * 1024 * 1024) }]);
    await expect(off.aggregate('c', [])).resolves.toHaveLength(1);
    expect(() => memoryEngine({ maxDocumentBytes: 0 })).toThrow(/positive integer/);
    await Promise.all([at.close(), below.close(), off.close()]);
  });
});
