import type { Attribute, Attributes } from '../schema';
import { ownValue } from './as-list';
import { invalidKey, joinPath, type ParseScope } from './parse-scope';

/** Strapi's admin-user relations: present on every Strapi type, never reachable from the Content API. */
const ADMIN_RELATIONS: ReadonlySet<string> = new Set(['createdBy', 'updatedBy']);

/**
 * Finds `key` among `attributes` (own properties only). Unknown keys are `Invalid key <key>` at the parent's
 * path (as Strapi reports them); private attributes and `createdBy`/`updatedBy` are `Invalid key` at their own path.
 */
export function resolveAttribute(scope: ParseScope, attributes: Attributes, key: string, parentPath: string | null): Attribute {
  if (ADMIN_RELATIONS.has(key)) throw invalidKey(scope, key, joinPath(parentPath, key));
  const attribute = ownValue(attributes, key);
  if (!attribute) throw invalidKey(scope, key, parentPath);
  if (attribute.private) throw invalidKey(scope, key, joinPath(parentPath, key));
  return attribute;
}

/** Filters and sorts may only cross relations whose target the caller can `find` (media are not checked, as in Strapi). */
export function assertCanCross(scope: ParseScope, attribute: Attribute, path: string): void {
  if (attribute.kind === 'relation' && !scope.context.canFind(attribute.target)) {
    const error = invalidKey(scope, attribute.name, path);
    if (!scope.deferred) throw error;
    scope.deferred.error ??= error;
  }
}

/** The attributes reached through a relation, media or component attribute. */
export function nestedAttributes(scope: ParseScope, attribute: Attribute): Attributes | undefined {
  switch (attribute.kind) {
    case 'relation':
    case 'media':
      return scope.registry.contentType(attribute.target).attributes;
    case 'component':
      return scope.registry.component(attribute.component).attributes;
    default:
      return undefined;
  }
}
