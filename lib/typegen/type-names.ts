import type { Registry } from '../schema';

const pascal = (s: string): string =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/**
 * An interface name per content type (its singularName: `Article`; the upload file: `UploadFile`) and
 * component (category and name: `SharedSeo`); a clash gets a numbered suffix.
 *
 * @example
 * typeNames(registry).get('api::article.article'); // 'Article'
 */
export function typeNames(registry: Registry): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set(['JSONValue', 'Blocks', 'ContentTypes', 'Components']);
  const take = (uid: string, wanted: string): void => {
    let name = /^[A-Za-z]/.test(wanted) ? wanted : `T${wanted}`;
    for (let i = 2; used.has(name); i++) name = `${wanted}${i}`;
    used.add(name);
    names.set(uid, name);
  };
  for (const ct of registry.contentTypes.values()) take(ct.uid, ct.internal ? 'UploadFile' : pascal(ct.singularName));
  for (const c of registry.components.values()) take(c.uid, pascal(c.uid));
  return names;
}
