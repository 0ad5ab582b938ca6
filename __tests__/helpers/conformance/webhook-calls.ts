import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFORMANCE_DIR } from './load';
import { normalize, type NormalizeContext } from './normalize';
import type { Captures } from './types';

/** A webhook call as recorded from Strapi (`webhooks/events.json`) or by our receiver. */
export interface WebhookCallRecord {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly body: unknown;
}

export const WEBHOOKS_DIR = join(CONFORMANCE_DIR, 'webhooks');

/** Strapi's 247 calls and the captures of the replay they were recorded in. */
export function loadRecordedCalls(): { calls: WebhookCallRecord[]; captures: Captures } {
  const read = (f: string): unknown => JSON.parse(readFileSync(join(WEBHOOKS_DIR, f), 'utf8'));
  return { calls: read('events.json') as WebhookCallRecord[], captures: read('_captures.json') as Captures };
}

/** The headers the recording keeps (its README): the event, the media type, the webhook's own header. */
const HEADERS = ['x-strapi-event', 'content-type', 'x-oracle'] as const;

/** documentId -> `<capture name>` (every documentId of the recording is captured); others become `<doc>`. */
function docSymbols(captures: Captures): Map<string, string> {
  const sym = new Map<string, string>();
  for (const [name, v] of Object.entries(captures)) if (typeof v === 'string' && !sym.has(v)) sym.set(v, `<${name}>`);
  return sym;
}

function unknownDocs(v: unknown, known: ReadonlyMap<string, string>, key?: string): unknown {
  if (Array.isArray(v)) return v.map((x) => unknownDocs(x, known));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unknownDocs(x, known, k)]));
  return key === 'documentId' && typeof v === 'string' && !v.startsWith('<') ? '<doc>' : v;
}

/**
 * One call as the README says to compare them: documentIds replaced by capture names, numeric ids dropped (`<id>`),
 * timestamps and media hashes normalised as compare.mjs does (`--loose-media`), the recorded headers only.
 */
export function normalizeCall(call: WebhookCallRecord, captures: Captures): string {
  const ctx: NormalizeContext = { docs: docSymbols(captures), looseMedia: true };
  const headers: Record<string, unknown> = {};
  for (const name of HEADERS) {
    const value = Object.entries(call.headers).find(([k]) => k.toLowerCase() === name)?.[1];
    if (value !== undefined) headers[name] = name === 'content-type' ? String(value).split(';')[0]!.trim() : value;
  }
  const body = unknownDocs(normalize(call.body, ctx), ctx.docs);
  return JSON.stringify({ method: call.method.toUpperCase(), url: call.url, headers, body });
}

/** Each normalised call with how many times it was made. */
export function multiset(calls: readonly WebhookCallRecord[], captures: Captures): Map<string, number> {
  const counts = new Map<string, number>();
  for (const call of calls) {
    const key = normalizeCall(call, captures);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** The calls of `a` that `b` lacks (with multiplicity). */
export function minus(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): string[] {
  const out: string[] = [];
  for (const [key, n] of a) for (let i = 0; i < n - (b.get(key) ?? 0); i++) out.push(key);
  return out;
}

/** A short label of a normalised call: event, type, document, locale, version. */
export function label(key: string): string {
  const call = JSON.parse(key) as { body: { event: string; uid?: string; entry?: Record<string, unknown>; media?: Record<string, unknown> } };
  const { event, uid, entry, media } = call.body;
  if (media) return `${event} ${String(media.name)}`;
  const version = entry?.publishedAt === null ? 'draft' : 'published';
  return `${event} ${uid} ${String(entry?.documentId)}${entry?.locale ? ` ${String(entry.locale)}` : ''} ${version}`;
}
