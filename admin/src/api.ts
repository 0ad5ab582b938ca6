// The one HTTP client of the admin: the Content API at the configured URL, with the session's bearer token. A
// 401 with a refresh token is retried once after `POST /auth/refresh` (the plugin's session mode). A Strapi error
// envelope becomes react-admin's HttpError with Strapi's message, its validation errors keyed by field path
// (react-admin shows them under the fields they name).
import { stringify } from 'qs';
import { HttpError } from 'react-admin';
import { bearerOf, getSession, setSession } from './session';

let apiUrl = '/api';

export function setApiUrl(url: string): void {
  apiUrl = url;
}

export function getApiUrl(): string {
  return apiUrl;
}

/** The absolute URL of a media file's `url` (relative URLs are the router's host's). */
export function mediaUrl(url: string | undefined): string | undefined {
  if (!url || /^(https?:|data:|blob:)/.test(url)) return url;
  const origin = /^https?:/.test(apiUrl) ? new URL(apiUrl).origin : '';
  return `${origin}${url}`;
}

export interface RequestOptions {
  method?: string;
  query?: Record<string, unknown>;
  /** A JSON body, or FormData for uploads. */
  body?: unknown;
  /** Send no Authorization header (login). */
  anonymous?: boolean;
}

interface StrapiError {
  error?: { status?: number; name?: string; message?: string; details?: { errors?: { path?: (string | number)[]; message?: string }[] } };
}

/** Strapi's `details.errors[].path` as react-admin's form errors (`{ 'seo.metaTitle': 'message' }`). */
export function fieldErrors(body: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const item of (body as StrapiError)?.error?.details?.errors ?? []) {
    if (item.path?.length && item.message) errors[item.path.join('.')] = item.message;
  }
  return errors;
}

async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const query = options.query ? stringify(options.query, { encodeValuesOnly: true, skipNulls: true }) : '';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token && !options.anonymous) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  return fetch(`${apiUrl}${path}${query ? `?${query}` : ''}`, { method: options.method ?? 'GET', headers, body });
}

/** Spends the session's refresh token for a new pair; false when there is none or it is refused. */
async function refresh(): Promise<boolean> {
  const session = getSession();
  if (session?.kind !== 'jwt' || !session.refreshToken) return false;
  const res = await send('/auth/refresh', { method: 'POST', body: { refreshToken: session.refreshToken }, anonymous: true }, null);
  if (!res.ok) return false;
  const json = (await res.json()) as { jwt?: string; refreshToken?: string };
  if (!json.jwt) return false;
  setSession({ kind: 'jwt', jwt: json.jwt, refreshToken: json.refreshToken ?? session.refreshToken });
  return true;
}

/** A Content API request; resolves with the parsed JSON (null for an empty answer), rejects with an HttpError. */
export async function request<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  let res = await send(path, options, bearerOf(getSession()));
  if (res.status === 401 && !options.anonymous && (await refresh())) res = await send(path, options, bearerOf(getSession()));
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  if (!res.ok) {
    const message = (json as StrapiError)?.error?.message ?? (res.statusText || `HTTP ${res.status}`);
    const errors = fieldErrors(json);
    throw new HttpError(message, res.status, Object.keys(errors).length ? { errors } : json);
  }
  return json as T;
}
