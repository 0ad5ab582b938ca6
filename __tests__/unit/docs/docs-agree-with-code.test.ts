import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MAX_PIXELS, DEFAULT_MAX_REQUEST_PIXELS } from '../../../lib/media/image-header';
import { docFiles } from '../../helpers/doc-examples';

/**
 * What README.md and docs/ say is what the code does. The image pixel limits: the defaults of `upload.maxPixels`
 * and `upload.maxRequestPixels`, and the status of a refused image (400 ValidationError, never 413, which is
 * for bodies over a byte limit). Each statement is found where the docs make it: `maxPixels` followed by
 * "default <n>" ("<n> megapixels" counts a million each), or a table row naming the option with a number cell.
 */
const REPO = join(__dirname, '..', '..', '..');
const LIMITS = [
  { option: 'maxPixels', value: DEFAULT_MAX_PIXELS },
  { option: 'maxRequestPixels', value: DEFAULT_MAX_REQUEST_PIXELS },
];

/** `50,000,000`, `50 000 000`, `` `50000000` ``, `50` + megapixels: the number. */
function amount(text: string, megapixels: boolean): number {
  return Number(text.replace(/[`\s,_]/g, '')) * (megapixels ? 1e6 : 1);
}

/** Every line of prose (code blocks left out) of README.md and docs/*.md, with where it is. */
function proseLines(): { where: string; line: string }[] {
  const lines: { where: string; line: string }[] = [];
  for (const file of docFiles()) {
    let inCode = false;
    readFileSync(join(REPO, file), 'utf8').split('\n').forEach((line, i) => {
      if (line.startsWith('```')) inCode = !inCode;
      else if (!inCode) lines.push({ where: `${file}:${i + 1}`, line });
    });
  }
  return lines;
}

/** The defaults `line` states for `option`. */
function statedDefaults(line: string, option: string): number[] {
  const found: number[] = [];
  const prose = new RegExp(`\`(?:upload\\.)?${option}\`[^|]*?default (\\d[\\d ,]*\\d|\\d)( megapixels)?`, 'g');
  for (const m of line.matchAll(prose)) found.push(amount(m[1]!, m[2] !== undefined));
  if (line.startsWith('|')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.some((c) => c === `\`${option}\`` || c === `\`upload.${option}\``)) {
      for (const cell of cells) if (/^`?\d[\d ,]*\d`?$/.test(cell)) found.push(amount(cell, false));
    }
  }
  return found;
}

describe('the documented image pixel limits', () => {
  const lines = proseLines();

  it.each(LIMITS)('every stated default of upload.$option is $value', ({ option, value }) => {
    const stated = lines.flatMap(({ where, line }) => statedDefaults(line, option).map((n) => ({ where, n })));
    expect(stated.length).toBeGreaterThan(1);
    expect(stated.filter((s) => s.n !== value)).toEqual([]);
  });

  it('a refused image is a 400, not a 413', () => {
    const wrong = lines.filter(({ line }) => /\bmax(Request)?Pixels\b/.test(line) && /\b413\b/.test(line));
    expect(wrong).toEqual([]);
  });
});

describe('the documented users-permissions plugin', () => {
  it('exists (auth.users: register, log in with /auth/local), so no page says it does not', async () => {
    const { createContentRouter, memoryEngine } = await import('../../../lib');
    const router = createContentRouter({ contentTypes: [], engine: memoryEngine({ ephemeral: true }), logger: false, auth: { users: { jwtSecret: 'a-secret-of-the-test-only-0123456789' } } });
    await router.ready;
    await router.engine.close();
    const denials = proseLines().filter(({ line }) => /(does not|doesn't|do not) (implement|have|support|provide)[^.]*users[- ]permissions/i.test(line) || /no users[- ]permissions/i.test(line));
    expect(denials).toEqual([]);
  });
});
