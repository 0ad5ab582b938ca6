import type { ReplaySide } from './types';

const ISO_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/;
/** Strapi cuid2-like, UUID, ObjectId hex. */
const DOC_ID = /^([a-z0-9]{24,26}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{24})$/;
const DOC_CAPTURE = /(documentId|\.doc)$|^(art|author|cat|about|global)/;

/** Options of the normalisation (compare.mjs flags). */
export interface NormalizeOptions {
  /** Keep numeric `id`s (Strapi vs Strapi only). */
  readonly strictIds?: boolean;
  /** Replace media `size`/`sizeInBytes` numbers by `<n>` (another image pipeline encodes differently). */
  readonly looseMedia?: boolean;
}

/** Normalisation context of one side: its documentId -> symbol table plus the options. */
export interface NormalizeContext extends NormalizeOptions {
  readonly docs: ReadonlyMap<string, string>;
}

/**
 * documentId -> symbol for one side: `<capture name>` for captured ids, then `<doc#N>` by first appearance
 * (cases in order, object keys sorted).
 * @example buildDocSymbols(golden).get(golden.captures['author.ann']) // '<author.ann>'
 */
export function buildDocSymbols(side: ReplaySide): Map<string, string> {
  const sym = new Map<string, string>();
  for (const [name, v] of Object.entries(side.captures)) {
    if (typeof v === 'string' && (DOC_ID.test(v) || DOC_CAPTURE.test(name)) && !sym.has(v)) sym.set(v, `<${name}>`);
  }
  let n = 0;
  const visit = (v: unknown, key?: string): void => {
    if (Array.isArray(v)) return v.forEach((x) => visit(x));
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o).sort()) visit(o[k], k);
      return;
    }
    if (key === 'documentId' && typeof v === 'string' && !sym.has(v)) sym.set(v, `<doc#${++n}>`);
  };
  for (const name of side.index) {
    const r = side.records.get(name);
    if (r) visit(r.body);
  }
  return sym;
}

function normalizeString(s: string, ctx: NormalizeContext, key: string | undefined): string {
  if (ISO_TS.test(s)) return '<ts>';
  if (key === 'hash') return '<hash>';
  if (key === 'jwt') return '<jwt>';
  if (key === 'refreshToken') return '<refresh>';
  let out = s;
  if (key === 'url' || key === 'previewUrl') out = out.replace(/_[0-9a-f]{10}(?=\.[A-Za-z0-9]+$|$)/, '_<hash>');
  const symbol = ctx.docs.get(out);
  if (symbol !== undefined) return symbol;
  if (key === 'message' && out.length >= 20) {
    // documentIds quoted inside error messages
    for (const [val, sym] of ctx.docs) if (val.length >= 8 && out.includes(val)) out = out.split(val).join(sym);
  }
  return out;
}

/**
 * A body with ids, timestamps, media hashes, users-permissions `jwt`s and `refreshToken`s (and with `looseMedia` sizes) replaced by symbols and object
 * keys sorted, as compare.mjs does, so two servers' answers can be compared structurally.
 * @example normalize({ id: 3, createdAt: '2026-01-01T00:00:00.000Z' }, ctx) // { createdAt: '<ts>', id: '<id>' }
 */
export function normalize(v: unknown, ctx: NormalizeContext, key?: string): unknown {
  if (Array.isArray(v)) return v.map((x) => normalize(x, ctx));
  if (v && typeof v === 'object') {
    const src = v as Record<string, unknown>;
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(src).sort()) o[k] = normalize(src[k], ctx, k);
    return o;
  }
  if (typeof v === 'number') {
    if (key === 'id' && !ctx.strictIds) return '<id>';
    if (ctx.looseMedia && (key === 'size' || key === 'sizeInBytes')) return '<n>';
    return v;
  }
  if (typeof v === 'string') return normalizeString(v, ctx, key);
  return v;
}
