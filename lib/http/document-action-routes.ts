import type { Request, RequestHandler, Router } from 'express';
import type { Ability } from '../auth/types';
import type { Documents } from '../documents';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors';
import { parseRawQuery } from '../query';
import type { ContentType, Registry } from '../schema';
import type { SourceMapSettings } from '../format/encode-source-maps';
import { methodNotAllowed } from './error-handler';
import { getAbility, rawQueryString } from './request-context';
import { sendData } from './send';

/** The draft & publish actions that are not a write of the document (Strapi's admin has them; its REST API does not). */
export const DOCUMENT_ACTIONS = ['unpublish', 'discard-draft'] as const;
type DocumentAction = (typeof DOCUMENT_ACTIONS)[number];

export interface DocumentActionRoutesDeps {
  registry: Registry;
  documents: (uid: string, ability: Ability) => Documents;
  sourceMaps?: SourceMapSettings;
}

/**
 * `POST /<pluralName>/:documentId/actions/unpublish|discard-draft` (`/<singularName>/actions/...` for a single type),
 * for each draft & publish type: what Strapi's admin does with its content manager's `actions/unpublish` and
 * `actions/discard`, for the built-in admin (docs/admin.md). Both take the type's `update` grant (403 otherwise) and
 * `?locale=` on a localized type (the default locale without it; an unknown one is a 400). `unpublish` removes the
 * published version and answers the draft; `discard-draft` replaces the draft by the published version and answers
 * it. A document without a published version is a 404 for both.
 *
 * @example
 * documentActionRoutes({ registry, documents }, router); // POST /api/articles/abc/actions/unpublish?locale=fr
 */
export function documentActionRoutes(deps: DocumentActionRoutesDeps, router: Router): void {
  for (const ct of deps.registry.contentTypes.values()) {
    if (ct.internal || !ct.draftAndPublish) continue;
    const base = ct.kind === 'collectionType' ? `/${ct.pluralName}/:documentId/actions` : `/${ct.singularName}/actions`;
    for (const action of DOCUMENT_ACTIONS) {
      router.route(`${base}/${action}`).post(handler(deps, ct, action)).all(methodNotAllowed(['POST']));
    }
  }
}

function handler(deps: DocumentActionRoutesDeps, ct: ContentType, action: DocumentAction): RequestHandler {
  const services = new WeakMap<Ability, Documents>();
  return async (req, res) => {
    const ability = getAbility(req);
    if (!ability.can(`${ct.uid}.update`)) throw new ForbiddenError();
    let docs = services.get(ability);
    if (!docs) services.set(ability, (docs = deps.documents(ct.uid, ability)));
    const locale = localeOf(req, deps.registry, ct);
    const documentId = ct.kind === 'collectionType' ? String(req.params.documentId) : await docs.anyDocumentId();
    if (documentId === undefined) throw new NotFoundError();
    const options = locale === undefined ? {} : { locale };
    let doc: unknown;
    if (action === 'unpublish') {
      if ((await docs.unpublish(documentId, options)) === 0) throw new NotFoundError();
      doc = await docs.findOne(documentId, `status=draft${locale === undefined ? '' : `&locale=${encodeURIComponent(locale)}`}`);
    } else {
      doc = await docs.discardDraft(documentId, options);
    }
    if (!doc) throw new NotFoundError();
    sendData(req, res, deps.registry, ct, 200, doc, {}, deps.sourceMaps);
  };
}

/** `?locale=` of a localized type: one of the configured locales (400 otherwise); ignored on other types. */
function localeOf(req: Request, registry: Registry, ct: ContentType): string | undefined {
  const { locale } = parseRawQuery(rawQueryString(req)) as { locale?: unknown };
  if (!ct.localized || locale === undefined) return undefined;
  if (typeof locale !== 'string' || !registry.i18n.locales.includes(locale)) {
    throw new ValidationError(`Invalid locale "${String(locale)}": the configured locales are ${registry.i18n.locales.join(', ')}`, { key: 'locale', source: 'query' });
  }
  return locale;
}
