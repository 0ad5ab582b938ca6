import { UPLOAD_FILE_UID } from '../schema';
import { findAction } from './check-actions';
import type { Ability } from './types';

/** How an ability reads drafts: Strapi's default (`find` is enough) or the stricter `findDrafts` rule. */
export interface AbilityOptions {
  draftsRequirePermission: boolean;
}

/**
 * An immutable ability from a predicate over action names. `canFind` and `canReadDrafts` derive from `can`.
 *
 * @example
 * ```ts
 * const ability = createAbility((a) => a === 'api::article.article.find', 'public', { draftsRequirePermission: false });
 * ability.canFind('api::article.article'); // true
 * ```
 */
export function createAbility(can: (action: string) => boolean, subject: string, options: AbilityOptions, scope?: object): Ability {
  const canFind = (uid: string): boolean => can(findAction(uid));
  const canReadDrafts = (uid: string): boolean => {
    if (uid === UPLOAD_FILE_UID) return canFind(uid);
    if (options.draftsRequirePermission) return can(`${uid}.findDrafts`);
    return canFind(uid) || can(`${uid}.findOne`);
  };
  return Object.freeze(scope ? { can, canFind, canReadDrafts, subject, scope } : { can, canFind, canReadDrafts, subject });
}

/** An ability allowing exactly the listed actions (`scope`: see Ability.scope). */
export function abilityFromActions(actions: Iterable<string>, subject: string, options: AbilityOptions, scope?: object): Ability {
  const allowed = new Set(actions);
  return createAbility((action) => allowed.has(action), subject, options, scope);
}

/** Strapi's read-only rule (`isReadScope`): every action whose name ends in `find` or `findOne`. */
export function isReadAction(action: string): boolean {
  return action.endsWith('.find') || action.endsWith('.findOne');
}
