import { createHmac } from 'node:crypto';
import { hashAccessKey } from '../../../lib/auth';
import { findDigest } from '../../../lib/auth/hash-access-key';

describe('hashAccessKey', () => {
  it("is Strapi's HMAC-SHA512 keyed with the salt, in hex", () => {
    const expected = createHmac('sha512', 'pepper').update('secret-token').digest('hex');
    expect(hashAccessKey('secret-token', 'pepper')).toBe(expected);
    expect(hashAccessKey('secret-token', 'pepper')).toMatch(/^[0-9a-f]{128}$/);
  });

  it('depends on the salt and on the key', () => {
    expect(hashAccessKey('a', 's1')).not.toBe(hashAccessKey('a', 's2'));
    expect(hashAccessKey('a', 's1')).not.toBe(hashAccessKey('b', 's1'));
  });
});

describe('findDigest', () => {
  const d = (s: string) => Buffer.from(hashAccessKey(s, 'k'), 'hex');
  const all = [d('one'), d('two'), d('three')];

  it.each([
    ['one', 0],
    ['two', 1],
    ['three', 2],
    ['four', -1],
  ])('%s -> %i', (key, index) => {
    expect(findDigest(d(key), all)).toBe(index);
  });

  it('never matches a digest of another length', () => {
    expect(findDigest(Buffer.alloc(3), all)).toBe(-1);
  });
});
