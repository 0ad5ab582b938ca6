/**
 * What the caller of one request may do. Actions use Strapi's names:
 * `api::article.article.find|findOne|create|update|delete` and
 * `plugin::upload.content-api.find|findOne|upload|destroy`.
 */
export interface Ability {
  can(action: string): boolean;
  /** `can(uid + '.find')`, with `plugin::upload.file` mapped to `plugin::upload.content-api.find`. */
  canFind(uid: string): boolean;
  /** Who is asking: 'public', 'api-token:<name>' or what `resolve(req)` returned. */
  readonly subject: string;
}

/** An ability that allows everything (used when no `auth` option is given: every route is open). */
export const OPEN_ABILITY: Ability = Object.freeze({
  can: () => true,
  canFind: () => true,
  subject: 'open',
});
