import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { runCli } from '../../../lib/cli';
import { runHashToken, type HashTokenIo } from '../../../lib/cli/hash-token';

const SALT = 'test-salt';
const strapiHash = (key: string, salt = SALT): string => createHmac('sha512', salt).update(key).digest('hex');

/** Runs the command on a fake process: its exit code and what it wrote. */
function run(argv: string[], { stdin = '', env = {}, tty = false }: { stdin?: string; env?: NodeJS.ProcessEnv; tty?: boolean } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  let reads = 0;
  const io: HashTokenIo = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    readStdin: () => {
      reads += 1;
      return stdin;
    },
    stdinIsTTY: tty,
    env,
  };
  const code = runHashToken(argv, io);
  return { code, stdout: out.join(''), stderr: err.join(''), reads };
}

describe('content-router hash-token', () => {
  it("prints Strapi's HMAC-SHA512 of an access key given as an argument", () => {
    const r = run(['--salt', SALT, 'my-token']);
    expect(r).toMatchObject({ code: 0, stdout: `${strapiHash('my-token')}\n`, reads: 0 });
  });

  it.each([
    ['a line end', 'my-token\n'],
    ['a Windows line end', 'my-token\r\n'],
    ['no line end', 'my-token'],
  ])('reads the key from stdin when none is given (%s)', (_label, stdin) => {
    expect(run(['--salt', SALT], { stdin })).toMatchObject({ code: 0, stdout: `${strapiHash('my-token')}\n`, reads: 1 });
  });

  it('takes the salt from API_TOKEN_SALT, --salt first', () => {
    expect(run(['k'], { env: { API_TOKEN_SALT: 'from-env' } }).stdout).toBe(`${strapiHash('k', 'from-env')}\n`);
    expect(run(['--salt', SALT, 'k'], { env: { API_TOKEN_SALT: 'from-env' } }).stdout).toBe(`${strapiHash('k')}\n`);
  });

  it('asks for the key on a terminal', () => {
    expect(run(['--salt', SALT], { stdin: 'k\n', tty: true }).stderr).toContain('Paste the access key');
  });

  it('notes a key shorter than the 256 characters Strapi generates, on stderr only', () => {
    const short = run(['--salt', SALT, 'short']);
    expect(short.stderr).toContain('this key has 5 characters, Strapi generates 256');
    expect(short.stdout).toBe(`${strapiHash('short')}\n`);
    expect(run(['--salt', SALT, 'a'.repeat(256)]).stderr).toBe('');
  });

  it('--generate prints a new 256-character key and its hash', () => {
    const r = run(['--generate', '--salt', SALT]);
    expect(r.code).toBe(0);
    const [key, hash, rest] = r.stdout.split('\n');
    expect(key).toMatch(/^[0-9a-f]{256}$/);
    expect(hash).toBe(strapiHash(key!));
    expect(rest).toBe('');
    expect(run(['--generate', '--salt', SALT]).stdout).not.toContain(key!);
  });

  it('--generate without a salt prints the new key only, and says on stderr how to get its hash', () => {
    const r = run(['--generate']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f]{256}\n$/);
    expect(r.stderr).toContain('no salt given, so no hash');
    expect(r.stderr).toContain('--salt <salt> or API_TOKEN_SALT');
    expect(r.stderr).not.toContain('usage:');
  });

  it.each<[string, string[], { stdin?: string; env?: NodeJS.ProcessEnv }, string]>([
    ['no salt', ['k'], {}, 'no salt: give --salt <salt> or set API_TOKEN_SALT'],
    ['an empty salt', ['--salt', '', 'k'], {}, 'CR_INVALID_HASH_INPUT: hashAccessKey(accessKey, salt): the salt must be a non-empty string'],
    ['no key on stdin', ['--salt', SALT], { stdin: '' }, 'no access key: give it as an argument or on stdin'],
    ['a key with a space', ['--salt', SALT, 'a b'], {}, 'the access key contains whitespace'],
    ['a key with a space on stdin', ['--salt', SALT], { stdin: 'a b\n' }, 'the access key contains whitespace'],
    ['two keys', ['--salt', SALT, 'a', 'b'], {}, 'give one access key at most'],
    ['--generate with a key', ['--generate', '--salt', SALT, 'a'], {}, '--generate makes a new key'],
    ['an unknown option', ['--sallt', SALT, 'k'], {}, "Unknown option '--sallt'"],
    ['--salt without a value', ['--salt'], {}, "Option '--salt <value>' argument missing"],
  ])('%s: exit 1, the reason and the usage on stderr, nothing on stdout', (_label, argv, options, message) => {
    const r = run(argv, options);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`content-router hash-token: ${message}`);
    expect(r.stderr).toContain('usage: content-router hash-token');
  });

  it('--help prints the usage on stdout', () => {
    const r = run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('usage: content-router hash-token [--salt <salt>] [<access-key>]');
  });

  it('is dispatched by runCli', () => {
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const note = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(runCli(['hash-token', '--salt', SALT, 'my-token'])).toBe(0);
      expect(write).toHaveBeenCalledWith(`${strapiHash('my-token')}\n`);
      expect(note.mock.calls).toEqual([[expect.stringContaining('this key has 8 characters, Strapi generates 256')]]);
    } finally {
      write.mockRestore();
      note.mockRestore();
    }
  });

  it('reads the real stdin of the command (a process)', () => {
    const root = path.join(__dirname, '..', '..', '..');
    const r = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', 'lib/cli.ts', 'hash-token'], {
      cwd: root,
      input: 'my-token\n',
      env: { ...process.env, API_TOKEN_SALT: SALT },
      encoding: 'utf8',
    });
    expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 0, stdout: `${strapiHash('my-token')}\n` });
  });
});
