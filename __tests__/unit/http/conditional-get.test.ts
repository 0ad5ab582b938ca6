import crypto, { createHash } from 'node:crypto';
import express from 'express';
import request from 'supertest';
import { conditionalGet, ifNoneMatchFails, strongEtag, tagAnswer } from '../../../lib/http/conditional-get';

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

describe('tagAnswer: a repeated answer reuses its tag', () => {
  const app = express();
  const source = {};
  let body = Buffer.from('{"data":[1,2,3]}');
  app.use(conditionalGet);
  app.get('/a', (_req, res) => {
    const bytes = Buffer.from(body); // a new buffer each time, as a writer gives
    tagAnswer(source, bytes);
    res.type('application/json').send(bytes);
  });

  test('the tag is strongEtag of the bytes; equal bytes are compared, not hashed again; changed bytes are', async () => {
    const hashing = jest.spyOn(crypto, 'hash');
    try {
      const first = await request(app).get('/a');
      expect(first.headers.etag).toBe(strongEtag(body));
      hashing.mockClear();
      const again = await request(app).get('/a');
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(hashing).not.toHaveBeenCalled();
      expect((await request(app).get('/a').set('if-none-match', first.headers.etag as string)).status).toBe(304);
      body = Buffer.from('{"data":[1,2,4]}'); // same length, one byte differs
      const changed = await request(app).get('/a').set('if-none-match', first.headers.etag as string);
      expect(changed.status).toBe(200);
      expect(hashing).toHaveBeenCalledTimes(1); // the spy sees the hashing
      expect(changed.headers.etag).toBe(strongEtag(body));
      expect(changed.headers.etag).not.toBe(first.headers.etag);
    } finally {
      hashing.mockRestore();
    }
  });
});
