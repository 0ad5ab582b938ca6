import type { IncomingMessage } from 'node:http';

/**
 * What the caller of one request may do. Actions use Strapi's names:
 * `api::article.article.find|findOne|create|update|delete` (plus our `findDrafts`) and
 * `plugin::upload.content-api.find|findOne|upload|destroy`.
 */
export interface Ability {
  can(action: string): boolean;
  /** `can(uid + '.find')`, with `plugin::upload.file` mapped to `plugin::upload.content-api.find`. */
  canFind(uid: string): boolean;
  /** Who is asking: 'public', 'api-token:<name>' or what `resolve(req)` returned. */
  readonly subject: string;
  /**
   * Whether the caller may read the drafts of `uid` (`?status=draft`, and drafts reached through populate).
   * By default it takes `<uid>.findDrafts`; with `auth.drafts: 'strapi'` anyone who may `find` or `findOne` the
   * type may (Strapi's behaviour, strapi#25326). Media have no drafts: `canFind`.
   */
  canReadDrafts(uid: string): boolean;
  /**
   * An object shared by abilities that answer every question alike (the same actions and options: the callers
   * `resolve` answers with one role's actions); what is kept per caller (parsed queries) is kept per scope. The
   * ability itself when absent.
   */
  readonly scope?: object;
}

/** An ability that allows everything: the document service's own (requests always get the ability `createAuth` gives). */
export const OPEN_ABILITY: Ability = Object.freeze({
  can: () => true,
  canFind: () => true,
  canReadDrafts: () => true,
  subject: 'open',
});

/** An ability that allows nothing: what a request gets when no authentication ran (fail closed). */
export const NO_ABILITY: Ability = Object.freeze({
  can: () => false,
  canFind: () => false,
  canReadDrafts: () => false,
  subject: 'none',
});

/** Turns a request into the caller's ability (built once by `createAuth`, used by the auth middleware). */
export interface Authenticator {
  /**
   * The caller's ability. Rejects with `UnauthorizedError` ("Missing or invalid credentials") when a bearer token
   * is unknown or expired (and `resolve` did not recognise the request either).
   */
  authenticate(req: IncomingMessage): Promise<Ability>;
  /**
   * The same answer without a promise when it does not need `resolve` (an API token, or no token and no
   * `resolve`): the ability, or a thrown `UnauthorizedError`; undefined when only `authenticate` can tell.
   */
  authenticateSync?(req: IncomingMessage): Ability | undefined;
  /** The type of the API token an ability stands for (`auth.apiTokens`); undefined for any other caller. */
  tokenType?(ability: Ability): 'full-access' | 'read-only' | 'custom' | undefined;
}
