import { docExamples, parseDocExamples, printedInOrder } from '../../helpers/doc-examples';

/**
 * The convention of runnable documentation blocks (docs/contributing.md), read by helpers/doc-examples.ts; the
 * blocks themselves run in __tests__/package/tarball.test.ts against the packed package.
 */
const md = (...lines: string[]): string => lines.join('\n');

describe('runnable documentation blocks', () => {
  it('runs every ts and js block, a sh block only when marked runnable, and attaches a text output block to the block before it', () => {
    const examples = parseDocExamples('doc.md', md(
      'Intro', '```ts', 'console.log(1);', '```', '```text output', '1', '', '```',
      '```js', "require('x');", '```',
      '```sh', 'npm start', '```',
      '```sh runnable', 'npx content-router verify .data/content.db', '```',
      '',
      '```text output',
      '.data/content.db: ok',
      '```',
      '```text', 'not an output', '```',
    ));
    expect(examples).toEqual([
      { where: 'doc.md:2', lang: 'ts', code: 'console.log(1);\n', output: ['1'] },
      { where: 'doc.md:9', lang: 'js', code: "require('x');\n" },
      { where: 'doc.md:15', lang: 'sh', code: 'npx content-router verify .data/content.db\n', output: ['.data/content.db: ok'] },
    ]);
  });

  it.each([
    ['a misspelt marker', md('```sh runable', 'x', '```'), 'doc.md:1: unknown marker runable on a ```sh block'],
    ['runnable on a language that does not run', md('```json runnable', '{}', '```'), 'doc.md:1: only ts, js and sh blocks run'],
    ['an output block after a block that does not run', md('```sh', 'npm start', '```', '```text output', 'x', '```'), 'doc.md:4: a ```text output block must follow a runnable block directly'],
    ['an output block with prose before it', md('```ts', 'x', '```', 'Then:', '```text output', 'x', '```'), 'doc.md:5: a ```text output block must follow'],
    ['an output block first', md('```text output', 'x', '```'), 'doc.md:1: a ```text output block must follow'],
  ])('refuses %s', (_label, text, message) => {
    expect(() => parseDocExamples('doc.md', text)).toThrow(message);
  });

  it('checks an output block line by line, in order', () => {
    expect(printedInOrder('a\n  b \nc\n', ['a', 'c'])).toBe(true);
    expect(printedInOrder('a\nb\n', ['b', 'a'])).toBe(false);
    expect(printedInOrder('ab\n', ['a'])).toBe(false);
  });

  it('README.md and docs/ follow it, and mark shell commands and outputs to run', () => {
    const examples = docExamples();
    const where = (lang: string) => examples.filter((e) => e.lang === lang).map((e) => e.where.replace(/:\d+$/, ''));
    expect(where('sh')).toEqual(expect.arrayContaining(['docs/production.md', 'docs/security.md', 'docs/types.md']));
    // The webhook signature check is an ES module, as the README's projects, and shows what it prints.
    const signature = examples.find((e) => e.code.includes("createHmac('sha256'") && e.code.includes('timingSafeEqual'));
    expect(signature).toMatchObject({ lang: 'ts', output: ['true', 'false'] });
    expect(signature!.code).not.toContain('require(');
  });
});
