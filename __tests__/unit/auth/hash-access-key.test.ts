import { createHmac } from 'node:crypto';
import { hashAccessKey } from '../../../lib/auth';
import { findDigest } from '../../../lib/auth/hash-access-key';
import { ConfigurationError } from '../../../lib/errors';

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

describe('hashAccessKey with a missing or empty argument', () => {
  const failure = (accessKey: unknown, salt: unknown): ConfigurationError => {
    try {
      hashAccessKey(accessKey as string, salt as string);
    } catch (err) {
      return err as ConfigurationError;
    }
    throw new Error('hashAccessKey did not throw');
  };

  it.each<[string, unknown, unknown, string]>([
    ['no salt (an unset environment variable)', 'secret-token', undefined, 'the salt must be a non-empty string (Strapi\'s API_TOKEN_SALT, admin.apiToken.salt), got undefined'],
    ['an empty salt', 'secret-token', '', 'the salt must be a non-empty string (Strapi\'s API_TOKEN_SALT, admin.apiToken.salt), got an empty string'],
    ['a salt that is not a string', 'secret-token', 42, 'the salt must be a non-empty string (Strapi\'s API_TOKEN_SALT, admin.apiToken.salt), got number'],
    ['no access key', undefined, 'pepper', 'the access key must be a non-empty string, got undefined'],
    ['an empty access key', '', 'pepper', 'the access key must be a non-empty string, got an empty string'],
    ['a null access key', null, 'pepper', 'the access key must be a non-empty string, got null'],
  ])('%s: a CR_INVALID_HASH_INPUT ConfigurationError, not ERR_INVALID_ARG_TYPE', (_label, accessKey, salt, message) => {
    const err = failure(accessKey, salt);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect(err.code).toBe('CR_INVALID_HASH_INPUT');
    expect(err.message).toBe(`CR_INVALID_HASH_INPUT: hashAccessKey(accessKey, salt): ${message}`);
  });

  it('never shows the other argument, which may be a secret', () => {
    expect(failure('secret-token', undefined).message).not.toContain('secret-token');
    expect(failure(undefined, 'pepper').message).not.toContain('pepper');
  });
});
