import type { Registry } from '../schema';
import { UPLOAD_FILE_UID } from '../schema';
import { invalidAuthOption } from './auth-options';

/** The Content API actions of a content type (`findDrafts`: reading its drafts, see `auth.drafts`). */
export const CONTENT_TYPE_ACTIONS: readonly string[] = ['find', 'findOne', 'create', 'update', 'delete', 'findDrafts'];

/** The upload plugin's Content API actions (`plugin::upload.content-api.<action>`). */
export const UPLOAD_ACTIONS: readonly string[] = ['find', 'findOne', 'upload', 'destroy'];

const UPLOAD_PREFIX = 'plugin::upload.';
const I18N_PREFIX = 'plugin::i18n.';
/** The i18n plugin's one Content API action (`GET /api/i18n/locales`). */
export const I18N_LIST_LOCALES = 'plugin::i18n.locales.listLocales';
export const UPLOAD_CONTENT_API = 'plugin::upload.content-api';

/**
 * Checks configured actions against the model, so a typo (`api::articles.article.find`,
 * `api::article.article.list`) fails at startup instead of silently denying. `api::` actions must name a known
 * content type and one of its actions; `plugin::upload.` actions must be upload actions, `plugin::i18n.` actions
 * `plugin::i18n.locales.listLocales`; other plugins' actions
 * (e.g. `plugin::users-permissions.user.me`) pass through untouched.
 */
export function checkActions(actions: readonly string[], field: string, registry: Registry): void {
  actions.forEach((action, i) => {
    const at = `${field}[${i}]`;
    const dot = action.lastIndexOf('.');
    const uid = action.slice(0, dot);
    const name = action.slice(dot + 1);
    if (action.startsWith('api::')) {
      if (!registry.contentTypes.has(uid)) throw invalidAuthOption(at, `names an unknown content type: ${uid}`);
      if (!CONTENT_TYPE_ACTIONS.includes(name)) {
        throw invalidAuthOption(at, `"${name}" is not one of ${CONTENT_TYPE_ACTIONS.join(', ')}`);
      }
    } else if (action.startsWith(I18N_PREFIX)) {
      if (action !== I18N_LIST_LOCALES) throw invalidAuthOption(at, `must be ${I18N_LIST_LOCALES}`);
    } else if (action.startsWith(UPLOAD_PREFIX)) {
      if (uid !== UPLOAD_CONTENT_API || !UPLOAD_ACTIONS.includes(name)) {
        throw invalidAuthOption(at, `must be ${UPLOAD_CONTENT_API}.<${UPLOAD_ACTIONS.join('|')}>`);
      }
    }
  });
}

/** The action that lets a caller `find` `uid` (media: the upload plugin's `find`). */
export function findAction(uid: string): string {
  return uid === UPLOAD_FILE_UID ? `${UPLOAD_CONTENT_API}.find` : `${uid}.find`;
}
