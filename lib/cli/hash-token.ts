import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { hashAccessKey } from '../auth/hash-access-key';
import { generateAccessKey, STRAPI_ACCESS_KEY_LENGTH } from '../auth/short-access-keys';

export const HASH_TOKEN_USAGE = `usage: content-router hash-token [--salt <salt>] [<access-key>]
       content-router hash-token [--salt <salt>] --generate

Prints the hash of an API token's access key: the hex HMAC-SHA512 Strapi stores, to configure as
auth.apiTokens[].hash with the same salt as auth.salt (docs/security.md).
  --salt        the HMAC key (Strapi's API_TOKEN_SALT); default: the API_TOKEN_SALT environment variable
  <access-key>  the key to hash; read from stdin when absent (better: an argument stays in the shell history)
  --generate    generate a new access key as Strapi does (${STRAPI_ACCESS_KEY_LENGTH} hex characters): prints the key,
                then its hash, one per line; without a salt, the key only`;

const NO_SALT_NOTE =
  'this is a new access key (no salt given, so no hash). Configure it as auth.apiTokens[].accessKey (from an environment ' +
  'variable, not in the code), or better its hash: run again with --salt <salt> or API_TOKEN_SALT set, the auth.salt of ' +
  'the configuration (a random string, as Strapi\'s API_TOKEN_SALT: openssl rand -base64 16)';

/** Where the command reads and writes (the process's by default; tests pass their own). */
export interface HashTokenIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The whole of stdin. */
  readStdin(): string;
  stdinIsTTY: boolean;
  env: NodeJS.ProcessEnv;
}

const processIo = (): HashTokenIo => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: () => fs.readFileSync(0, 'utf8'),
  stdinIsTTY: process.stdin.isTTY === true,
  env: process.env,
});

/**
 * `content-router hash-token`: hashes an access key (argument or stdin) with `--salt` or `API_TOKEN_SALT`, or
 * generates a new key and its hash (`--generate`; the key alone when no salt is given). Returns the exit code: 0,
 * or 1 with the reason on stderr.
 *
 * @example
 * // printf '%s' "$TOKEN" | API_TOKEN_SALT=... npx content-router hash-token
 * process.exitCode = runHashToken(process.argv.slice(3));
 */
export function runHashToken(argv: readonly string[], io: HashTokenIo = processIo()): number {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { salt: { type: 'string' }, generate: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
    if (values.help) {
      io.stdout(`${HASH_TOKEN_USAGE}\n`);
      return 0;
    }
    if (positionals.length > 1) throw new Error('give one access key at most');
    if (values.generate && positionals.length > 0) throw new Error('--generate makes a new key: give no access key with it');
    const salt = values.salt ?? io.env.API_TOKEN_SALT;
    if (values.generate) {
      const accessKey = generateAccessKey();
      if (salt === undefined) {
        // The key alone: a project configured with plain access keys has no salt (and the CR_SHORT_ACCESS_KEY
        // warning sends its owner here as it is).
        io.stdout(`${accessKey}\n`);
        io.stderr(`content-router hash-token: ${NO_SALT_NOTE}\n`);
        return 0;
      }
      io.stdout(`${accessKey}\n${hashAccessKey(accessKey, salt)}\n`);
      io.stderr('content-router hash-token: line 1 is the new access key (give it to the client; keep it nowhere on the server), line 2 its hash (auth.apiTokens[].hash)\n');
      return 0;
    }
    if (salt === undefined) throw new Error('no salt: give --salt <salt> or set API_TOKEN_SALT (the auth.salt of your configuration)');
    const accessKey = positionals[0] ?? readKey(io);
    checkKey(accessKey);
    io.stdout(`${hashAccessKey(accessKey, salt)}\n`);
    if (accessKey.length < STRAPI_ACCESS_KEY_LENGTH) {
      io.stderr(`content-router hash-token: note: this key has ${accessKey.length} characters, Strapi generates ${STRAPI_ACCESS_KEY_LENGTH} (--generate makes one)\n`);
    }
    return 0;
  } catch (err) {
    io.stderr(`content-router hash-token: ${(err as Error).message}\n\n${HASH_TOKEN_USAGE}\n`);
    return 1;
  }
}

/** The key on stdin, without the line end a shell or an editor adds. */
function readKey(io: HashTokenIo): string {
  if (io.stdinIsTTY) io.stderr('Paste the access key, then press Enter and Ctrl-D:\n');
  return io.readStdin().replace(/[\r\n]+$/, '');
}

/** A key a client can send: `Authorization: Bearer <key>` is split on whitespace, so a key never holds any. */
function checkKey(accessKey: string): void {
  if (accessKey === '') throw new Error('no access key: give it as an argument or on stdin');
  if (/\s/.test(accessKey)) throw new Error('the access key contains whitespace: no client could send it in `Authorization: Bearer <key>`');
}
