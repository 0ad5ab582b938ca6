import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** `../shared` next to the repository: the source of the copied data, absent on a fresh clone. */
const REPO = join(__dirname, '..', '..');
const SHARED = join(REPO, '..', 'shared');

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) out.push(...listFiles(p));
    else out.push(p);
  }
  return out;
}

/** Relative paths under `dir` matching `keep`. */
function filesUnder(dir: string, keep: (rel: string) => boolean = () => true): string[] {
  return existsSync(dir) ? listFiles(dir).map((f) => relative(dir, f)).filter(keep) : [];
}

function expectSameFiles(source: string, copy: string, keep?: (rel: string) => boolean): void {
  const wanted = filesUnder(source, keep);
  expect(wanted.length).toBeGreaterThan(0);
  expect(filesUnder(copy, keep)).toEqual(wanted);
  const different = wanted.filter((rel) => !readFileSync(join(source, rel)).equals(readFileSync(join(copy, rel))));
  expect(different).toEqual([]);
}

/** What the tests read of the blog model: every content type, every component (any category), the permissions, Strapi's export of its data. */
const MODEL_FILE = /^(content-types\/[^/]+\.json|components\/[^/]+\/[^/]+\.json|permissions\.json|strapi-export\.tar)$/;

// Skipped (and named so in the report) on a clone alone: there is nothing to compare the copies with.
const describeShared = existsSync(join(SHARED, 'conformance')) ? describe : describe.skip;

describeShared(`copied data matches ../shared (${SHARED}; skipped when it is absent)`, () => {
  it('__tests__/conformance/corpus is byte-identical to ../shared/conformance/corpus', () => {
    expectSameFiles(join(SHARED, 'conformance', 'corpus'), join(REPO, '__tests__', 'conformance', 'corpus'));
  });

  it('__tests__/conformance/golden is byte-identical to ../shared/conformance/golden', () => {
    expectSameFiles(join(SHARED, 'conformance', 'golden'), join(REPO, '__tests__', 'conformance', 'golden'));
  });

  it('__tests__/conformance/users is byte-identical to ../shared/conformance/users (cases and golden)', () => {
    expectSameFiles(join(SHARED, 'conformance', 'users'), join(REPO, '__tests__', 'conformance', 'users'));
  });

  it('__tests__/conformance/users-sessions is byte-identical to ../shared/conformance/users-sessions (cases, golden, deliberate.json)', () => {
    expectSameFiles(join(SHARED, 'conformance', 'users-sessions'), join(REPO, '__tests__', 'conformance', 'users-sessions'));
  });

  it('__tests__/conformance/webhooks is byte-identical to ../shared/conformance/webhooks (Strapi\'s recorded webhook calls)', () => {
    expectSameFiles(join(SHARED, 'conformance', 'webhooks'), join(REPO, '__tests__', 'conformance', 'webhooks'));
  });

  it('examples/blog/model is byte-identical to ../shared/fixtures/blog (schemas, permissions, strapi-export.tar)', () => {
    expectSameFiles(join(SHARED, 'fixtures', 'blog'), join(REPO, 'examples', 'blog', 'model'), (rel) => MODEL_FILE.test(rel));
  });
});
