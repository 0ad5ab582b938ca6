// The login, kept in sessionStorage (it ends with the browser tab): a users-permissions JWT (with its refresh token
// when the router runs sessions) or an API token pasted once. Nothing secret is built into the page.

export type Session =
  | { kind: 'jwt'; jwt: string; refreshToken?: string }
  | { kind: 'token'; token: string };

let KEY = 'content-router-admin.session';

/** Keys the session by the API's URL: two admins of two routers on one origin keep two logins. */
export function setSessionScope(apiUrl: string): void {
  KEY = `content-router-admin.session:${apiUrl}`;
}

export function getSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function setSession(session: Session): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
}

export function clearSession(): void {
  sessionStorage.removeItem(KEY);
}

/** The bearer token of the session, if any. */
export function bearerOf(session: Session | null): string | null {
  if (!session) return null;
  return session.kind === 'jwt' ? session.jwt : session.token;
}
