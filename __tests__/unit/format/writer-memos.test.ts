import { compileDocumentBytes, JsonBytes } from '../../../lib/format';
import { writeStoredJson } from '../../../lib/format/json-value';
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
    for (const row of all.slice(1)) text((out) => write(row, out));
    expect(text((out) => write(first, out))).toContain('"name":"Changed"');
  });

  it('a document writer that populates nothing keeps the bytes of each row object it wrote (a page read again)', () => {
    const write = compileDocumentBytes(registry, 'api::article.article', parse('fields[0]=title&fields[1]=slug'));
    const row: Row = { id: 1, documentId: 'doc-1', title: 'Kept', slug: 'kept' };
    const before = text((out) => write(row, out));
    expect(JSON.parse(before)).toEqual({ id: 1, documentId: 'doc-1', title: 'Kept', slug: 'kept' });
    row.title = 'Changed'; // never done to a stored row: shows whether the bytes were kept
    expect(text((out) => write(row, out))).toBe(before);
    expect(text((out) => write({ ...row }, out))).toContain('"title":"Changed"'); // another object: written anew
    // A writer that populates writes its rows anew each time (the engine hands out fresh copies of them).
    const populated = compileDocumentBytes(registry, 'api::article.article', parse('fields[0]=title&populate[author][fields][0]=name'));
    const withAuthor: Row = { id: 2, documentId: 'doc-2', title: 'One', author: null };
    text((out) => populated(withAuthor, out));
    withAuthor.title = 'Two';
    expect(text((out) => populated(withAuthor, out))).toContain('"title":"Two"');
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
