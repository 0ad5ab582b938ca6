import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The secret that signs the example's logins, never a committed one: `JWT_SECRET` when set; else the secret kept in
 * `file` (the example's data folder), generated on first start (32 random bytes, base64) and written with mode
 * 0600, then read back on every restart so that logins survive it (as Strapi writes `JWT_SECRET` into a new
 * project's `.env`); without `file`, a fresh secret for this process only (tests, the conformance replay).
 *
 * @example
 * jwtSecretFor(process.env, '.data/jwt-secret'); // read from, or created in, .data/jwt-secret
 */
export function jwtSecretFor(env: NodeJS.ProcessEnv, file: string | undefined): string {
  if (env.JWT_SECRET !== undefined && env.JWT_SECRET !== '') return env.JWT_SECRET;
  if (file === undefined) return randomBytes(32).toString('base64');
  const stored = readSecret(file);
  if (stored !== undefined) return stored;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('base64');
  try {
    // `wx`: created here or not at all; another process starting at the same time keeps its own, read back below.
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readSecret(file) ?? secret;
  }
}

function readSecret(file: string): string | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    return text === '' ? undefined : text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The key the example's pagination cursors are signed with (`rest.cursorSecret`): `CURSOR_SECRET` when set, else
 * derived from the JWT secret (an HMAC of a fixed label: the JWT secret itself cannot be recovered from it), so
 * that cursors survive a restart as logins do.
 *
 * @example
 * cursorSecretFor(process.env, jwtSecretFor(process.env, '.data/jwt-secret'));
 */
export function cursorSecretFor(env: NodeJS.ProcessEnv, jwtSecret: string): string {
  if (env.CURSOR_SECRET !== undefined && env.CURSOR_SECRET !== '') return env.CURSOR_SECRET;
  return createHmac('sha256', jwtSecret).update('content-router pagination cursors').digest('base64url');
}
