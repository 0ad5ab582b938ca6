import type { QueryContext } from '../query/types';
import type { Registry } from '../schema';
import type { Ability } from './types';

/**
 * The query context of a draft read (`?status=draft`). A draft read populates the draft versions of related
 * draft & publish types, so a related type whose drafts the caller may not read (`canReadDrafts` false: no
 * `<uid>.findDrafts` grant, unless `auth.drafts: 'strapi'`) is treated like a type it cannot `find`: left out of
 * the response, and filtering or sorting on it is a 400 `Invalid key`.
 * Returns null when that changes nothing (`auth.drafts: 'strapi'`, or a caller who may read every draft it may find),
 * so the caller's ability can be used as it is.
 *
 * @example
 * ```ts
 * const context = draftReadContext(registry, ability) ?? ability;
 * parseQuery({ registry, contentType, rawQuery, context, rest, action: 'find' });
 * ```
 */
export function draftReadContext(registry: Registry, ability: Ability): QueryContext | null {
  const hidden = new Set<string>();
  for (const ct of registry.contentTypes.values()) {
    if (ct.draftAndPublish && ability.canFind(ct.uid) && !ability.canReadDrafts(ct.uid)) hidden.add(ct.uid);
  }
  if (hidden.size === 0) return null;
  return { canFind: (uid) => !hidden.has(uid) && ability.canFind(uid) };
}
