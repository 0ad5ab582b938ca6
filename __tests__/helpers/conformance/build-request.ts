import { makePng } from './make-png';
import { resolveDeep, resolveText } from './placeholders';
import type { AuthKind, Captures, CorpusCase, MultipartSpec } from './types';

/** The two API tokens the corpus was recorded with (../shared/fixtures/blog/permissions.json). */
export interface ReplayTokens {
  readonly fullToken: string;
  readonly readonlyToken: string;
}

/** A request ready for `fetch`, with its resolved path and the placeholders that had no capture. */
export interface BuiltRequest {
  readonly path: string;
  readonly init: RequestInit;
  readonly missing: ReadonlySet<string>;
}

/** The `Authorization` header a case sends, as replay.mjs builds it. */
export function authHeader(auth: AuthKind | undefined, tokens: ReplayTokens): string | undefined {
  switch (auth ?? 'none') {
    case 'none':
      return undefined;
    case 'full':
      return `Bearer ${tokens.fullToken}`;
    case 'readonly':
      return `Bearer ${tokens.readonlyToken}`;
    case 'bad':
      return 'Bearer this-is-not-a-valid-token-0000000000000000';
    default:
      throw new Error(`unknown auth ${String(auth)}`);
  }
}

function multipartBody(c: CorpusCase, spec: MultipartSpec, captures: Captures, missing: Set<string>): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(spec.fields ?? {})) {
    const rv = resolveDeep(v, captures, missing);
    fd.append(k, typeof rv === 'string' ? rv : JSON.stringify(rv));
  }
  for (const f of spec.files ?? []) {
    let bytes: Buffer;
    if (f.png) bytes = makePng(f.png.width, f.png.height, f.png.seed);
    else if (f.text != null) bytes = Buffer.from(f.text, 'utf8');
    else throw new Error(`file spec without png/text in ${c.name}`);
    fd.append(f.field ?? 'files', new Blob([new Uint8Array(bytes)], { type: f.contentType ?? 'application/octet-stream' }), f.filename);
  }
  return fd; // fetch sets the multipart content-type with its boundary
}

/**
 * Builds the HTTP request of one corpus case exactly as replay.mjs does: placeholders resolved from the
 * captures so far, multipart / raw / JSON body, auth header, then the case's own headers (lower-cased).
 * @example buildRequest(corpus[0], {}, tokens).init.method // 'POST'
 */
export function buildRequest(c: CorpusCase, captures: Captures, tokens: ReplayTokens): BuiltRequest {
  const missing = new Set<string>();
  const path = resolveText(c.path, captures, missing);
  const headers: Record<string, string> = {};
  let body: RequestInit['body'];
  if (c.multipart) body = multipartBody(c, c.multipart, captures, missing);
  else if (c.rawBody != null) {
    body = resolveText(c.rawBody, captures, missing);
    headers['content-type'] = c.rawContentType ?? 'application/json';
  } else if (c.body !== undefined) {
    body = JSON.stringify(resolveDeep(c.body, captures, missing));
    headers['content-type'] = 'application/json';
  }
  const auth = authHeader(c.auth, tokens);
  if (auth) headers.authorization = auth;
  for (const [k, v] of Object.entries(c.headers ?? {})) headers[k.toLowerCase()] = resolveText(v, captures, missing);
  return { path, missing, init: { method: c.method, headers, body, redirect: 'manual' } };
}
