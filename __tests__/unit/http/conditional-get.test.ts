import { createHash } from 'node:crypto';
import { ifNoneMatchFails, strongEtag } from '../../../lib/http/conditional-get';

describe('strongEtag', () => {
  test('is the quoted base64url of the first 128 bits of the SHA-256 of the UTF-8 bytes', () => {
    const text = '{"data":"é€😀"}';
    const digest = createHash('sha256').update(Buffer.from(text, 'utf8')).digest().subarray(0, 16).toString('base64url');
    expect(strongEtag(text)).toBe(`"${digest}"`);
    expect(strongEtag(Buffer.from(text, 'utf8'))).toBe(`"${digest}"`);
  });

  test('differs when one byte differs, and is strong (no W/)', () => {
    expect(strongEtag('{"a":1}')).not.toBe(strongEtag('{"a":2}'));
    expect(strongEtag('')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });
});

describe('ifNoneMatchFails (RFC 9110 section 13.1.2, weak comparison)', () => {
  const tag = '"abc"';
  test.each<[string, boolean]>([
    ['"abc"', true],
    ['W/"abc"', true],
    ['*', true],
    [' * ', true],
    ['"x", "abc"', true],
    ['"x",W/"abc" , "y"', true],
    ['"abd"', false],
    ['abc', false],
    ['"x", "y"', false],
    ['', false],
    ['"abc', false],
    ['**', false],
  ])('If-None-Match: %s -> %s', (header, fails) => {
    expect(ifNoneMatchFails(header, tag)).toBe(fails);
    expect(ifNoneMatchFails(header, `W/${tag}`)).toBe(fails);
  });
});
