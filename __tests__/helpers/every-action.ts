import type { AuthOptions } from '../../lib';

/** The Content API actions of a content type, and the media library's (Strapi's names). */
const CONTENT_TYPE_ACTIONS = ['find', 'findOne', 'create', 'update', 'delete', 'findDrafts'];
const UPLOAD_ACTIONS = ['find', 'findOne', 'upload', 'destroy'].map((a) => `plugin::upload.content-api.${a}`);

/**
 * An `auth` option whose Public role lists every action of `contentTypes` and of the media library: the HTTP
 * suites that are not about permissions run through the real permission checks, with everything granted and
 * without the `CR_AUTH_OPEN` warning of `{ public: 'all' }` (content types are private by default).
 *
 * @example
 * createContentRouter({ contentTypes, auth: everyActionPublic(contentTypes), engine: testEngine() });
 */
export function everyActionPublic(contentTypes: readonly unknown[]): AuthOptions {
  const uids = contentTypes.map((raw) => {
    const d = raw as { uid?: string; info: { singularName: string } };
    return d.uid ?? `api::${d.info.singularName}.${d.info.singularName}`;
  });
  return { public: { actions: [...uids.flatMap((uid) => CONTENT_TYPE_ACTIONS.map((a) => `${uid}.${a}`)), ...UPLOAD_ACTIONS] } };
}
