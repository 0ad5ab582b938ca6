/** A value shown in a diff line: JSON, cut at 90 characters. */
export function short(v: unknown): string {
  const s = v === undefined ? 'undefined' : JSON.stringify(v);
  return s.length > 90 ? s.slice(0, 87) + '...' : s;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Up to `max` human-readable differences between an expected and an actual (normalised) value, as
 * compare.mjs prints them: `$.data[0].title: expected "a" got "b"`.
 * @example diff({ a: 1 }, { a: 2 }) // ['$.a: expected 1 got 2']
 */
export function diff(a: unknown, b: unknown, path = '$', out: string[] = [], max = 6): string[] {
  if (out.length >= max) return out;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}: array length ${a.length} != ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length) && out.length < max; i++) diff(a[i], b[i], `${path}[${i}]`, out, max);
    return out;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      if (out.length >= max) break;
      if (!(k in b)) out.push(`${path}.${k}: missing (expected ${short(a[k])})`);
      else if (!(k in a)) out.push(`${path}.${k}: unexpected ${short(b[k])}`);
      else diff(a[k], b[k], `${path}.${k}`, out, max);
    }
    return out;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${path}: expected ${short(a)} got ${short(b)}`);
  return out;
}
