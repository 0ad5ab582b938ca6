import { Router, type Request, type RequestHandler, type Response } from 'express';
import { draftReadContext } from '../auth';
import type { Ability } from '../auth/types';
import type { Documents } from '../documents';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors';
import { createQueryCache, parseQuery, parseRawQuery, type RestLimits } from '../query';
import type { Query, QueryContext } from '../query/types';
import type { ContentType, Registry } from '../schema';
import { readDataPayload } from '../schema/validate-body';
import { methodNotAllowed } from './error-handler';
import { getAbility, rawQueryString } from './request-context';
import { mergeRouteParams, parseActionOf, type RouteAction, type RouteParams } from './route-defaults';
import { sendData, sendList, sendOne } from './send';
import type { SourceMapSettings } from '../format/encode-source-maps';
import type { ReadCacheControl } from './cache-control';
import type { NoteRead } from './cache-tags-middleware';

export interface ContentRoutesDeps {
  registry: Registry;
  documents: (uid: string, ability: Ability) => Documents;
  rest: RestLimits;
  /** The `routes` option's parameters of a route (route-defaults.ts). */
  routeDefaults?: (uid: string, action: RouteAction) => RouteParams | undefined;
  /** Content source maps, sent when a request asks (the `preview` option; none without it). */
  sourceMaps?: SourceMapSettings;
  /** Sets the Cache-Control of a read's answer (the `cacheControl` option, cache-control.ts). */
  cacheControl?: ReadCacheControl;
  /** Tells the cache tags what a read reads (the `cacheTags` option, cache-tags-middleware.ts). */
  noteRead?: NoteRead;
}


/**
 * The Content API routes of every content type (spec tables 4.1 and 4.2), added to `router` (a new one by
 * default; the HTTP router passes itself so that requests do not go through a nested router).
 */
export function contentRoutes(deps: ContentRoutesDeps, router: Router = Router()): Router {
  for (const ct of deps.registry.contentTypes.values()) {
    if (ct.internal) continue;
    const c = controllers(deps, ct);
    if (ct.kind === 'collectionType') {
      router.route(`/${ct.pluralName}`).get(c.find).post(c.create).all(methodNotAllowed(['GET', 'POST']));
      router.route(`/${ct.pluralName}/:documentId`).get(c.findOne).put(c.update).delete(c.delete).all(methodNotAllowed(['GET', 'PUT', 'DELETE']));
    } else {
      router.route(`/${ct.singularName}`).get(c.findSingle).put(c.updateSingle).delete(c.deleteSingle).all(methodNotAllowed(['GET', 'PUT', 'DELETE']));
    }
  }
  return router;
}

function controllers(deps: ContentRoutesDeps, ct: ContentType) {
  const { registry } = deps;
  // One document service per ability (the abilities of API tokens and of the Public role are built once).
  const services = new WeakMap<Ability, Documents>();
  const actionNames = { find: `${ct.uid}.find`, findOne: `${ct.uid}.findOne`, create: `${ct.uid}.create`, update: `${ct.uid}.update`, delete: `${ct.uid}.delete` };
  const guard = (req: Request, action: keyof typeof actionNames): Documents => {
    const ability = getAbility(req);
    if (!ability.can(actionNames[action])) throw new ForbiddenError();
    let docs = services.get(ability);
    if (!docs) services.set(ability, (docs = deps.documents(ct.uid, ability)));
    return docs;
  };
  // The same query string of the same caller parses to the same (frozen) Query: parsed once (query-cache).
  const parsed = createQueryCache();
  const draftContexts = new WeakMap<object, QueryContext | null>();
  const query = (req: Request, route: RouteAction): Query => {
    const ability = getAbility(req);
    const owner = ability.scope ?? ability;
    const rawQuery = rawQueryString(req);
    const action = parseActionOf(ct, route);
    // The route's parameters are fixed per route: the raw query string and the route still key the cache.
    const defaults = deps.routeDefaults?.(ct.uid, route);
    const params = () => (defaults ? mergeRouteParams(defaults, parseRawQuery(rawQuery)) : undefined);
    const parse = (context: QueryContext, drafts: boolean): Query =>
      parsed(owner, `${drafts ? 'drafts:' : ''}${route}?${rawQuery}`, () => parseQuery({ registry, contentType: ct, rawQuery, params: params(), context, rest: deps.rest, action }));
    const q = parse(ability, false);
    if (q.status !== 'draft') return q;
    // Draft reads need canReadDrafts (`<uid>.findDrafts`, see auth.drafts): 403 as Strapi answers a missing action;
    // populated drafts of other types too (docs/security.md).
    if (action !== 'write' && !ability.canReadDrafts(ct.uid)) throw new ForbiddenError();
    let drafts = draftContexts.get(owner);
    if (drafts === undefined) draftContexts.set(owner, (drafts = draftReadContext(registry, ability)));
    return drafts ? parse(drafts, true) : q;
  };
  const writeOptions = (req: Request, route: 'create' | 'update' | 'delete') => {
    const q = query(req, route);
    const locale = q.locale;
    if (ct.localized && locale !== undefined && !registry.i18n.locales.includes(locale)) {
      throw new ValidationError(`Invalid locale "${locale}": the configured locales are ${registry.i18n.locales.join(', ')}`, {
        key: 'locale',
        source: 'query',
      });
    }
    return { status: q.status, locale, query: q };
  };
  // `next(null)` would mean "no error" to Express and fall through to the 405 handler: wrap falsy rejections.
  const handle = (fn: (req: Request, res: Response) => Promise<void>): RequestHandler => (req, res, next) => {
    fn(req, res).catch((err: unknown) => next(err || new Error(`rejected with ${String(err)}`)));
  };
  return {
    find: handle(async (req, res) => {
      const docs = guard(req, 'find');
      const q = query(req, 'find');
      deps.noteRead?.(req, { uid: ct.uid, route: 'find', query: q });
      const result = await docs.findMany(q);
      deps.cacheControl?.(req, res, ct.uid, 'find', q.status === 'draft');
      sendList(req, res, registry, ct, result, deps.sourceMaps);
    }),
    findOne: handle(async (req, res) => {
      const docs = guard(req, 'findOne');
      const q = query(req, 'findOne');
      deps.noteRead?.(req, { uid: ct.uid, route: 'findOne', query: q, documentId: String(req.params.documentId) });
      const stored = q.locale === '*' ? null : await docs.findStored(String(req.params.documentId), q);
      if (!stored) throw new NotFoundError();
      deps.cacheControl?.(req, res, ct.uid, 'findOne', q.status === 'draft');
      sendOne(req, res, registry, ct, stored, deps.sourceMaps);
    }),
    create: handle(async (req, res) => {
      const docs = guard(req, 'create');
      const data = readDataPayload(req.body);
      const doc = await docs.create(data, writeOptions(req, 'create'));
      sendData(req, res, registry, ct, 201, doc, {}, deps.sourceMaps);
    }),
    update: handle(async (req, res) => {
      const docs = guard(req, 'update');
      const data = readDataPayload(req.body);
      const doc = await docs.update(String(req.params.documentId), data, writeOptions(req, 'update'));
      if (!doc) throw new NotFoundError();
      sendData(req, res, registry, ct, 200, doc, {}, deps.sourceMaps);
    }),
    delete: handle(async (req, res) => {
      const docs = guard(req, 'delete');
      await docs.delete(String(req.params.documentId), { locale: writeOptions(req, 'delete').locale });
      res.status(204).end();
    }),
    findSingle: handle(async (req, res) => {
      const docs = guard(req, 'find');
      const q = query(req, 'find');
      deps.noteRead?.(req, { uid: ct.uid, route: 'find', query: q });
      const stored = q.locale === '*' ? null : await docs.findStored(undefined, q);
      if (!stored) throw new NotFoundError();
      deps.cacheControl?.(req, res, ct.uid, 'find', q.status === 'draft');
      sendOne(req, res, registry, ct, stored, deps.sourceMaps);
    }),
    updateSingle: handle(async (req, res) => {
      const docs = guard(req, 'update');
      const data = readDataPayload(req.body);
      // Find-or-create in the document service: the database keeps it to one document per single type.
      const doc = await docs.upsertSingle(data, writeOptions(req, 'update'));
      sendData(req, res, registry, ct, 200, doc, {}, deps.sourceMaps);
    }),
    deleteSingle: handle(async (req, res) => {
      const docs = guard(req, 'delete');
      await docs.deleteSingle({ locale: writeOptions(req, 'delete').locale });
      res.status(204).end();
    }),
  };
}
