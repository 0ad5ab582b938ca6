import jwt from 'jsonwebtoken';

/** The JWT service of the users-permissions plugin: HS256 tokens carrying the user's integer `id`. */
export interface JwtService {
  /** A signed token for `{ id }` with `iat` and `exp` (`expiresIn`), as Strapi issues them. */
  issue(payload: { id: number }): string;
  /** The payload of a valid token (signature, `alg` HS256, not expired), or null. */
  verify(token: string): { id?: unknown } | null;
}

/**
 * Issues and verifies the users' JWTs with `jsonwebtoken` (the library Strapi itself uses, so tokens are alike:
 * header `{"alg":"HS256","typ":"JWT"}`, payload `{ id, iat, exp }`). Verification accepts HS256 only: a token
 * with `alg: none`, another algorithm, a bad signature or past its `exp` is null.
 *
 * @example
 * const tokens = createJwtService({ secret: process.env.JWT_SECRET!, expiresIn: '30d' });
 * tokens.verify(tokens.issue({ id: 1 })); // { id: 1, iat, exp }
 */
export function createJwtService(options: { secret: string; expiresIn: string | number }): JwtService {
  const { secret } = options;
  const expiresIn = options.expiresIn as jwt.SignOptions['expiresIn'];
  return {
    issue: (payload) => jwt.sign({ id: payload.id }, secret, { algorithm: 'HS256', expiresIn }),
    verify(token) {
      try {
        const payload = jwt.verify(token, secret, { algorithms: ['HS256'] });
        return typeof payload === 'object' && payload !== null ? (payload as { id?: unknown }) : null;
      } catch {
        return null;
      }
    },
  };
}
