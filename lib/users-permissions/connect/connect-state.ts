import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { AuthorizationChecks } from './oauth-client';

/** The cookie that carries a login's checks from `/connect/<name>` to `/connect/<name>/callback`. */
export const STATE_COOKIE = 'cr_connect';
/** How long a login at the provider may take, in seconds. */
export const STATE_MAX_AGE = 600;

/** A login in progress: its provider, its checks, and where the browser goes back to. */
export interface ConnectState {
  readonly provider: string;
  readonly checks: AuthorizationChecks;
  /** The frontend URL chosen by `?callback=` (of the configured callback's origin), if any. */
  readonly callback?: string;
}

interface Sealed {
  p: string;
  s: string;
  v: string;
  n?: string;
  c?: string;
}

/** Seals a login's state into the cookie's value, and opens (verifies) one. */
export interface StateSealer {
  seal(state: ConnectState): string;
  /** The state of a valid, unexpired cookie value; undefined for anything else. */
  open(token: string | undefined): ConnectState | undefined;
}

/**
 * Seals and opens the login-state cookie: an HS256 JWT under a key derived from `auth.users.jwtSecret` (so that
 * it can never pass for a user's JWT, nor a user's JWT for it), expiring after ten minutes. It binds the login to
 * the browser that started it: the provider's answer is redeemed only with the cookie whose `state` it carries
 * (a login CSRF or a stolen code fails), and the PKCE verifier never leaves this server and that browser.
 *
 * @example
 * const states = createStateSealer(options.jwtSecret);
 * res.cookie(STATE_COOKIE, states.seal({ provider: 'github', checks }), { httpOnly: true, sameSite: 'lax' });
 */
export function createStateSealer(jwtSecret: string): StateSealer {
  const key = createHmac('sha256', jwtSecret).update('content-router users-permissions connect state').digest();
  const options = { algorithm: 'HS256', audience: 'connect' } as const;
  return {
    seal({ provider, checks, callback }) {
      const payload: Sealed = { p: provider, s: checks.state, v: checks.codeVerifier, ...(checks.nonce ? { n: checks.nonce } : {}), ...(callback ? { c: callback } : {}) };
      return jwt.sign(payload, key, { ...options, expiresIn: STATE_MAX_AGE });
    },
    open(token) {
      if (token === undefined || token.length > 4096) return undefined;
      try {
        const p = jwt.verify(token, key, { algorithms: ['HS256'], audience: 'connect' }) as Partial<Sealed>;
        if (typeof p.p !== 'string' || typeof p.s !== 'string' || typeof p.v !== 'string') return undefined;
        const checks: AuthorizationChecks = { state: p.s, codeVerifier: p.v, ...(typeof p.n === 'string' ? { nonce: p.n } : {}) };
        return { provider: p.p, checks, ...(typeof p.c === 'string' ? { callback: p.c } : {}) };
      } catch {
        return undefined;
      }
    },
  };
}

/** The value of cookie `name` in a `Cookie` header (RFC 6265 `name=value; name2=value2`), if present once or more. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      const value = part.slice(i + 1).trim();
      return value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
    }
  }
  return undefined;
}
