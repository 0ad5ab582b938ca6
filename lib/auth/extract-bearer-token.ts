/**
 * The token of an `Authorization: Bearer <token>` header, as Strapi reads it: the header is split on whitespace
 * and must be exactly two parts with a case-insensitive `bearer` scheme. Anything else (`Token abc`,
 * `Bearer ` with nothing, `Bearer a b`, no header) yields `null`: the request is treated as carrying no token.
 *
 * @example
 * ```ts
 * extractBearerToken('Bearer abc'); // 'abc'
 * extractBearerToken('Token abc');  // null
 * ```
 */
export function extractBearerToken(header: string | readonly string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  const parts = header.split(/\s+/);
  if (parts.length !== 2 || parts[0]!.toLowerCase() !== 'bearer') return null;
  const token = parts[1]!;
  return token === '' ? null : token;
}
