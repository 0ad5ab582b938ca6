import { isPlainObject } from './project-note';

/**
 * `over` merged into `base` as lodash's `merge` does it (how Strapi merges `config/env/<NODE_ENV>/` over `config/`):
 * plain objects key by key, arrays index by index, an `undefined` in `over` keeps the base's value, anything else
 * replaces. With `arrays: 'replace'` an array of `over` replaces the base's whole. Neither argument is changed.
 *
 * @example
 * mergeConfig({ rest: { defaultLimit: 25, maxLimit: 100 } }, { rest: { maxLimit: 250 } }); // { rest: { defaultLimit: 25, maxLimit: 250 } }
 */
export function mergeConfig(base: unknown, over: unknown, arrays: 'merge' | 'replace' = 'merge'): unknown {
  if (over === undefined) return base;
  if (arrays === 'merge' && Array.isArray(base) && Array.isArray(over)) {
    const merged: unknown[] = [...base];
    over.forEach((value, i) => (merged[i] = mergeConfig(base[i], value, arrays)));
    return merged;
  }
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (key === '__proto__') continue;
    merged[key] = mergeConfig(base[key], value, arrays);
  }
  return merged;
}
