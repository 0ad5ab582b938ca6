import { morphKeyError, type ValidationError } from '../errors';
import type { Attribute, Attributes } from '../schema';
import { ownValue } from './as-list';
import { invalidKey, joinPath, type ParseScope } from './parse-scope';

/**
 * `Invalid key <key>` for a key `attributes` do not have; when it is a morph relation of the schema (loaded, not
 * served: docs/rest-api.md, "Morph relations"), the message says so.
 */
export function unknownKey(scope: ParseScope, attributes: Attributes, key: string, path: string | null): ValidationError {
  const morph = scope.registry.morphRelation(attributes, key);
  return morph ? morphKeyError(key, morph.relation, path, 'query', scope.param) : invalidKey(scope, key, path);
}

/** Strapi's admin-user relations: present on every Strapi type, never reachable from the Content API. */
const ADMIN_RELATIONS: ReadonlySet<string> = new Set(['createdBy', 'updatedBy']);

/**
 * Finds `key` among `attributes` (own properties only). Unknown keys are `Invalid key <key>` at the parent's
 * path (as Strapi reports them); private attributes and `createdBy`/`updatedBy` are `Invalid key` at their own path.
 */
export function resolveAttribute(scope: ParseScope, attributes: Attributes, key: string, parentPath: string | null): Attribute {
  if (ADMIN_RELATIONS.has(key)) throw invalidKey(scope, key, joinPath(parentPath, key));
  const attribute = ownValue(attributes, key);
  if (!attribute) throw unknownKey(scope, attributes, key, parentPath);
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
