import { buildRequest, type ReplayTokens } from './build-request';
import { getPath } from './placeholders';
import type { Captures, CorpusCase, ReplayRecord, ReplaySide } from './types';

function parseBody(text: string, contentType: string): unknown {
  if (text.length === 0) return null;
  if (/json/.test(contentType)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Sends one case to `base` and records the answer; reads the case's captures from the response body into
 * `captures` (mutated, as the corpus relies on earlier captures). A network error becomes status 0.
 * @example await replayCase(c, 'http://127.0.0.1:1337', captures, tokens)
 */
export async function replayCase(c: CorpusCase, base: string, captures: Captures, tokens: ReplayTokens): Promise<ReplayRecord> {
  const { path, init, missing } = buildRequest(c, captures, tokens);
  const request = { method: c.method, path, auth: c.auth ?? 'none' };
  let res: Response;
  let text: string;
  try {
    res = await fetch(base.replace(/\/$/, '') + path, init);
    text = await res.text();
  } catch (err) {
    return { name: c.name, request, status: 0, headers: {}, body: String(err), error: true };
  }
  const ct = res.headers.get('content-type') ?? '';
  const body = parseBody(text, ct);
  const rec: ReplayRecord = { name: c.name, request, status: res.status, headers: { 'content-type': ct || null }, body };
  if (missing.size) rec.unresolved = [...missing];
  for (const [name, p] of Object.entries(c.captures ?? {})) {
    const v = getPath(body, p);
    if (v === undefined) rec.captureErrors = [...(rec.captureErrors ?? []), `${name} <- ${p}`];
    else captures[name] = v;
  }
  return rec;
}

/**
 * Replays the corpus in order against `base` and returns the run in memory (the same data replay.mjs
 * writes to a directory: records, captures, ordered index).
 * @example const side = await replayCorpus(cases, 'http://127.0.0.1:4137', tokens)
 */
export async function replayCorpus(cases: readonly CorpusCase[], base: string, tokens: ReplayTokens): Promise<ReplaySide> {
  const captures: Captures = {};
  const records = new Map<string, ReplayRecord>();
  const index: string[] = [];
  for (const c of cases) {
    records.set(c.name, await replayCase(c, base, captures, tokens));
    index.push(c.name);
  }
  return { index, captures, records };
}
