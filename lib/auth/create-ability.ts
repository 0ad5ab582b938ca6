import { UPLOAD_FILE_UID } from '../schema';
import type { DraftsRule } from './auth-options';
import { findAction } from './check-actions';
import type { Ability } from './types';

/** How an ability reads drafts: the `findDrafts` grant (the default) or Strapi's rule (`find` is enough). */
export interface AbilityOptions {
  drafts: DraftsRule;
}

/**
 * An immutable ability from a predicate over action names. `canFind` and `canReadDrafts` derive from `can`.
 *
 * @example
 * ```ts
 * const ability = createAbility((a) => a === 'api::article.article.find', 'public', { drafts: 'findDrafts' });
 * ability.canFind('api::article.article'); // true
 * ability.canReadDrafts('api::article.article'); // false: that takes api::article.article.findDrafts
 * ```
 */
export function createAbility(can: (action: string) => boolean, subject: string, options: AbilityOptions, scope?: object): Ability {
  const canFind = (uid: string): boolean => can(findAction(uid));
  const canReadDrafts = (uid: string): boolean => {
    if (uid === UPLOAD_FILE_UID) return canFind(uid);
    if (options.drafts === 'strapi') return canFind(uid) || can(`${uid}.findOne`);
    return can(`${uid}.findDrafts`);
  };
  return Object.freeze(scope ? { can, canFind, canReadDrafts, subject, scope } : { can, canFind, canReadDrafts, subject });
}

/** An ability allowing exactly the listed actions (`scope`: see Ability.scope). */
export function abilityFromActions(actions: Iterable<string>, subject: string, options: AbilityOptions, scope?: object): Ability {
  const allowed = new Set(actions);
  return createAbility((action) => allowed.has(action), subject, options, scope);
}

/**
 * What a read-only API token may do: Strapi's rule (`isReadScope`), every action whose name ends in `find` or
 * `findOne`, plus our `findDrafts`, so that read-only tokens read drafts as they do in Strapi.
 */
export function isReadAction(action: string): boolean {
  return action.endsWith('.find') || action.endsWith('.findOne') || action.endsWith('.findDrafts');
}
