import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { createAuth, hashAccessKey } from '../../../lib/auth';
import { generateAccessKey, STRAPI_ACCESS_KEY_LENGTH } from '../../../lib/auth/short-access-keys';
import { registry } from './fixtures';

/** The CR_SHORT_ACCESS_KEY warnings emitted while `fn` runs (spied on: nothing reaches stderr). */
function shortKeyWarnings(fn: () => void): string[] {
  const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  try {
    fn();
    return spy.mock.calls
      .filter(([, options]) => (options as { code?: string } | undefined)?.code === 'CR_SHORT_ACCESS_KEY')
      .map(([message, options]) => {
        expect(options).toEqual({ type: 'ContentRouterWarning', code: 'CR_SHORT_ACCESS_KEY' });
        return String(message);
      });
  } finally {
    spy.mockRestore();
  }
}

const LONG = 'a'.repeat(STRAPI_ACCESS_KEY_LENGTH);

describe('CR_SHORT_ACCESS_KEY', () => {
  // Jest runs with NODE_ENV=test, under which the warning is not emitted (fixtures use short keys on purpose).
  const nodeEnv = process.env.NODE_ENV;
  beforeEach(() => {
    process.env.NODE_ENV = 'production';
  });
  afterEach(() => {
    process.env.NODE_ENV = nodeEnv;
  });

  it('is 256: Strapi generates crypto.randomBytes(128).toString("hex")', () => {
    expect(STRAPI_ACCESS_KEY_LENGTH).toBe(256);
    expect(generateAccessKey()).toMatch(/^[0-9a-f]{256}$/);
    expect(generateAccessKey()).not.toBe(generateAccessKey());
  });

  it('names every short token and its length in one warning, never the key', () => {
    const warnings = shortKeyWarnings(() =>
      createAuth(
        {
          apiTokens: [
            { name: 'ci-short', type: 'full-access', accessKey: 'changeme' },
            { name: 'long-enough', type: 'read-only', accessKey: LONG },
            { name: 'preview-short', type: 'custom', accessKey: 'b'.repeat(255), permissions: [] },
          ],
        },
        registry,
      ),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"ci-short" (8 characters), "preview-short" (255 characters)');
    expect(warnings[0]).toContain('shorter than the 256 hex characters Strapi generates');
    expect(warnings[0]).toContain('npx content-router hash-token --generate');
    expect(warnings[0]).not.toContain('long-enough');
    expect(warnings[0]).not.toContain('changeme');
  });

  it('gives advice that works as written: its command, in a shell without a salt, prints a new key (and with one, its hash)', () => {
    const [warning] = shortKeyWarnings(() => createAuth({ apiTokens: [{ name: 'advice-short', type: 'read-only', accessKey: 'short' }] }, registry));
    const command = /`npx content-router ([^`]+)`/.exec(warning!)?.[1];
    expect(command).toBe('hash-token --generate');
    const cli = (args: string[], env: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', 'lib/cli.ts', ...args], { cwd: path.join(__dirname, '..', '..', '..'), encoding: 'utf8', env });
    const { API_TOKEN_SALT: _salt, ...noSalt } = process.env;
    const bare = cli(command!.split(' '), noSalt);
    expect({ status: bare.status, stdout: bare.stdout }).toEqual({ status: 0, stdout: expect.stringMatching(/^[0-9a-f]{256}\n$/) });
    const salted = cli(command!.split(' '), { ...noSalt, API_TOKEN_SALT: 'advice-salt' });
    const [key, hash] = salted.stdout.split('\n');
    expect(salted.status).toBe(0);
    expect(hash).toBe(createHmac('sha512', 'advice-salt').update(key!).digest('hex'));
  }, 120_000);

  it('says nothing for keys of Strapi length, tokens given as a hash, or no tokens', () => {
    expect(
      shortKeyWarnings(() => {
        createAuth({ apiTokens: [{ name: 'generated', type: 'full-access', accessKey: generateAccessKey() }] }, registry);
        createAuth({ salt: 's', apiTokens: [{ name: 'hashed', type: 'full-access', hash: hashAccessKey('short', 's') }] }, registry);
        createAuth({ public: { actions: [] } }, registry);
        createAuth(undefined, registry);
      }),
    ).toEqual([]);
  });

  it('is emitted once per process for the same tokens, again for other ones', () => {
    const auth = { apiTokens: [{ name: 'twice-short', type: 'read-only' as const, accessKey: 'short-key-1' }] };
    const warnings = shortKeyWarnings(() => {
      createAuth(auth, registry);
      createAuth(auth, registry);
      createAuth({ apiTokens: [{ name: 'other-short', type: 'read-only', accessKey: 'short-key-2' }] }, registry);
    });
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toContain('"other-short"');
  });

  it('is not emitted under NODE_ENV=test', () => {
    process.env.NODE_ENV = 'test';
    expect(shortKeyWarnings(() => createAuth({ apiTokens: [{ name: 'test-env-short', type: 'read-only', accessKey: 'k' }] }, registry))).toEqual([]);
  });

  it('is not emitted when the options are refused', () => {
    const warnings = shortKeyWarnings(() => {
      expect(() => createAuth({ apiTokens: [{ name: 'refused-short', type: 'custom', accessKey: 'k' }] }, registry)).toThrow('CR_INVALID_OPTIONS');
    });
    expect(warnings).toEqual([]);
  });
});
