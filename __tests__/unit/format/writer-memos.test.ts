import { compileDocumentBytes, JsonBytes } from '../../../lib/format';
import { writeStoredJson } from '../../../lib/format/json-value';
import { formatMemos } from '../../../lib/format/memo-budget';
import { parse, registry } from '../query/parse-helper';

/** format/memo-budget's FORMAT_MEMO_BYTES (written out: the test runs unchanged on code without the budget). */
const FORMAT_MEMO_BYTES = 16 * 1024 * 1024;

type Row = Record<string, unknown>;

/** Articles with a populated author each, the authors' text together weighing `bytes` (4 KB of bio each). */
const rows = (bytes: number): Row[] =>
  Array.from({ length: Math.ceil(bytes / 4096) }, (_, i) => ({ id: i + 1, documentId: `doc-${i}`, title: `Title ${i}`, author: { id: i + 1, documentId: `author-${i}`, name: `Author ${i}`, bio: `${i} `.padEnd(4096, 'x') } }));

const text = (write: (out: JsonBytes) => unknown): string => {
  const out = new JsonBytes();
  write(out);
  return out.toBuffer().toString('utf8');
};

describe('the JSON writers keep bytes by identity within a byte budget (format/memo-budget)', () => {
  it('a writer keeps the bytes of the populated rows it wrote, but not of more rows than the budget holds', () => {
    const write = compileDocumentBytes(registry, 'api::article.article', parse('fields[0]=title&populate[author][fields][0]=name&populate[author][fields][1]=bio'));
    const all = rows(2.5 * FORMAT_MEMO_BYTES);
    const first = all[0]!;
    const before = text((out) => write(first, out));
    // The identity contract: a stored row is never changed in place, so its kept bytes are written again. Changing
    // it shows whether they were kept.
    (first.author as Row).name = 'Changed';
    expect(text((out) => write(first, out))).toBe(before);
    // Each row written twice, as rows that come back (a writer whose rows never come back keeps few: below).
    for (const row of all.slice(1)) text((out) => (write(row, out), write(row, out)));
    expect(text((out) => write(first, out))).toContain('"name":"Changed"');
  });

  it('keeps the bytes of the rows of a selection that populates nothing, top-level rows included', () => {
    for (const raw of ['', 'fields[0]=title']) {
      const write = compileDocumentBytes(registry, 'api::article.article', parse(raw));
      const row: Row = { id: 1, documentId: 'doc', title: 'Title', locale: 'en' };
      const before = text((out) => write(row, out));
      row.title = 'Changed';
      expect(text((out) => write(row, out))).toBe(before);
    }
  });

  it('a writer whose rows never come back (new objects on every read) keeps one in 64, until they come back', () => {
    const write = compileDocumentBytes(registry, 'api::article.article', parse('fields[0]=title&fields[1]=documentId'));
    const fresh = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ id: i, documentId: `doc-${i}`, title: 'x'.repeat(1000) }));
    const grows = (rows: Row[]): number => {
      formatMemos.clear();
      for (const row of rows) text((out) => write(row, out));
      return formatMemos.held;
    };
    // The first 1,024 are all kept (about 1 KB each), the next 6,400 one in 64 (100 of them).
    grows(fresh(1024));
    const sampled = grows(fresh(6400));
    expect(sampled).toBeGreaterThan(50 * 1000);
    expect(sampled).toBeLessThan(200 * 1000);
    // Rows that come back: after one more window, every row is kept again.
    const back = fresh(64);
    for (let i = 0; i < 1024 / 64 + 1; i++) for (const row of back) text((out) => write(row, out));
    expect(grows(fresh(1000))).toBeGreaterThan(1000 * 1000);
  });

  it('the bytes of stored objects (json values, media formats) are kept within the same budget', () => {
    const values = Array.from({ length: Math.ceil((2.5 * FORMAT_MEMO_BYTES) / 4096) }, (_, i) => ({ text: `${i} `.padEnd(4096, 'y') }));
    const first = values[0]!;
    const before = text((out) => writeStoredJson(first, out));
    first.text = 'changed';
    expect(text((out) => writeStoredJson(first, out))).toBe(before);
    for (const value of values.slice(1)) text((out) => writeStoredJson(value, out));
    expect(text((out) => writeStoredJson(first, out))).toBe('{"text":"changed"}');
  });
});
