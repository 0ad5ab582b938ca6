import type { Captures } from './types';

const PH_FULL = /^\{\{([^{}]+)\}\}$/;
const PH_ANY = /\{\{([^{}]+)\}\}/g;

/**
 * Resolves `{{capture}}` placeholders in a string. A string that is exactly one placeholder becomes the
 * captured value itself (a number stays a number); otherwise values are spliced in as text. Unknown names
 * are left in place and added to `missing`.
 * @example resolveString('/api/articles/{{art.a}}', { 'art.a': 'abc' }, new Set()) // '/api/articles/abc'
 */
export function resolveString(s: string, captures: Captures, missing: Set<string>): unknown {
  const m = PH_FULL.exec(s);
  if (m) {
    const name = m[1]!;
    if (name in captures) return captures[name];
    missing.add(name);
    return s;
  }
  return s.replace(PH_ANY, (all, name: string) => {
    if (name in captures) return String(captures[name]);
    missing.add(name);
    return all;
  });
}

/** {@link resolveString} as text (paths, header values, object keys). */
export function resolveText(s: string, captures: Captures, missing: Set<string>): string {
  return String(resolveString(s, captures, missing));
}

/**
 * Resolves placeholders everywhere in a JSON value (strings, object keys, nested arrays and objects).
 * @example resolveDeep({ data: { author: '{{author.ann}}' } }, captures, missing)
 */
export function resolveDeep(v: unknown, captures: Captures, missing: Set<string>): unknown {
  if (typeof v === 'string') return resolveString(v, captures, missing);
  if (Array.isArray(v)) return v.map((x) => resolveDeep(x, captures, missing));
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[resolveText(k, captures, missing)] = resolveDeep(x, captures, missing);
    return o;
  }
  return v;
}

/**
 * Reads a dotted path in a response body: `data.documentId`, `0.id`, `data.1.localizations.0.documentId`.
 * @example getPath({ data: [{ id: 3 }] }, 'data.0.id') // 3
 */
export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const seg of path.split('.')) {
    if (cur == null) return undefined;
    if (Array.isArray(cur) && /^\d+$/.test(seg)) cur = cur[Number(seg)];
    else cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}
