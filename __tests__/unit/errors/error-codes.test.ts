import fs from 'node:fs';
import path from 'node:path';

const read = (file: string): string => fs.readFileSync(path.join(__dirname, '../../../', file), 'utf8');
const codes = (text: string, pattern: RegExp): Set<string> => new Set([...text.matchAll(pattern)].map((m) => m[1]!));

// Every ConfigurationErrorCode in lib/errors/configuration-error.ts and every WarningCode in
// lib/errors/emit-warning.ts is documented in docs/errors.md, and every code in the docs exists.
describe('docs/errors.md', () => {
  const errors = codes(read('lib/errors/configuration-error.ts'), /'(CR_[A-Z_]+)'/g);
  const warnings = codes(read('lib/errors/emit-warning.ts').match(/export type WarningCode = [^;]+;/)![0], /'(CR_[A-Z_]+)'/g);
  const docs = read('docs/errors.md');
  const inDocs = codes(docs, /`(CR_[A-Z_]+)`/g);
  const warningSection = codes(docs.slice(docs.indexOf('## Start-up warnings'), docs.indexOf('## Startup errors')), /^\| `(CR_[A-Z_]+)`/gm);

  it('lists every startup error code', () => {
    expect([...errors].filter((c) => !inDocs.has(c))).toEqual([]);
  });
  it('lists every start-up warning code in its warnings table', () => {
    expect([...warnings].sort()).toEqual([...warningSection].sort());
  });
  it('lists no code the library does not have', () => {
    expect([...inDocs].filter((c) => !errors.has(c) && !warnings.has(c))).toEqual([]);
  });
  it('has codes at all', () => {
    expect(errors.size).toBeGreaterThan(5);
    expect(warnings.size).toBeGreaterThan(1);
  });
});
