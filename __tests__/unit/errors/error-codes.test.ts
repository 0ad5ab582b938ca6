import fs from 'node:fs';
import path from 'node:path';

// Every ConfigurationErrorCode in lib/errors/configuration-error.ts is documented in docs/errors.md, and
// every code in the docs exists.
describe('docs/errors.md', () => {
  const source = fs.readFileSync(path.join(__dirname, '../../../lib/errors/configuration-error.ts'), 'utf8');
  const docs = fs.readFileSync(path.join(__dirname, '../../../docs/errors.md'), 'utf8');
  const inSource = new Set([...source.matchAll(/'(CR_[A-Z_]+)'/g)].map((m) => m[1]));
  const inDocs = new Set([...docs.matchAll(/`(CR_[A-Z_]+)`/g)].map((m) => m[1]));

  it('lists every startup error code', () => {
    expect([...inSource].filter((c) => !inDocs.has(c))).toEqual([]);
  });
  it('lists no code the library does not have', () => {
    expect([...inDocs].filter((c) => !inSource.has(c))).toEqual([]);
  });
  it('has codes at all', () => {
    expect(inSource.size).toBeGreaterThan(5);
  });
});
