import { OPEN_ABILITY } from '../auth';
import { ApplicationError, ConfigurationError } from '../errors';
import { suggestion } from '../errors/did-you-mean';
import { normalizeParams, parseQuery, type RestLimits } from '../query';
import type { ContentType, Registry } from '../schema';

/** The core routes of a content type, by Strapi's action names (`createCoreRouter`'s `config` keys). */
export type RouteAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

/** Query parameters of one route, given as objects (the shape `qs.parse` gives a query string, or plain values). */
export interface RouteQueryConfig {
  /**
   * Parameters the route sets: each top-level key given here replaces the request's own (what a Strapi route
   * middleware doing `ctx.query.populate = populate` does). The client cannot change them.
   */
  query?: Readonly<Record<string, unknown>>;
  /**
   * Parameters used when the request does not give that top-level key (a Strapi middleware doing
   * `ctx.query = { populate, ...ctx.query }`): `?populate=author` replaces a default `populate` as a whole.
   */
  defaultQuery?: Readonly<Record<string, unknown>>;
}

/** `routes` option: per content type uid, per core route action. See docs/options.md. */
export type RoutesOptions = Readonly<Record<string, Readonly<Partial<Record<RouteAction, RouteQueryConfig>>>>>;

/** The normalized parameters of one route. */
export interface RouteParams {
  readonly query: Readonly<Record<string, unknown>>;
  readonly defaultQuery: Readonly<Record<string, unknown>>;
}

const COLLECTION_ACTIONS: readonly RouteAction[] = ['find', 'findOne', 'create', 'update', 'delete'];
const SINGLE_ACTIONS: readonly RouteAction[] = ['find', 'update', 'delete'];

/**
 * The parse action of a route: a single type's `find` reads one document; writes parse only fields/populate/locale/status.
 *
 * @example
 * parseActionOf(globalType, 'find'); // 'findOne'
 */
export function parseActionOf(ct: ContentType, action: RouteAction): 'find' | 'findOne' | 'write' {
  if (action === 'find') return ct.kind === 'collectionType' ? 'find' : 'findOne';
  return action === 'findOne' ? 'findOne' : 'write';
}

function fail(message: string): never {
  throw new ConfigurationError('CR_INVALID_ROUTES', message);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function routeParams(registry: Registry, rest: RestLimits, ct: ContentType, action: RouteAction, config: unknown): RouteParams {
  const where = `routes["${ct.uid}"].${action}`;
  if (!isPlainObject(config)) fail(`${where} must be an object { query?, defaultQuery? }`);
  const extra = Object.keys(config).filter((k) => k !== 'query' && k !== 'defaultQuery');
  if (extra.length > 0) fail(`${where}: unknown key "${extra[0]}"${suggestion(extra[0]!, ['query', 'defaultQuery'])} (a route takes query and defaultQuery)`);
  const part = (key: 'query' | 'defaultQuery'): Record<string, unknown> => {
    const value = config[key];
    if (value === undefined) return {};
    if (!isPlainObject(value)) fail(`${where}.${key} must be an object of query parameters`);
    try {
      const params = normalizeParams(value);
      // Checked once with every permission: a bad key is a start-up error, not a 400 on every request.
      parseQuery({ registry, contentType: ct, rawQuery: '', params, context: OPEN_ABILITY, rest, action: parseActionOf(ct, action) });
      return params;
    } catch (err) {
      if (err instanceof ApplicationError) fail(`${where}.${key}: ${err.message}`);
      throw err;
    }
  };
  return Object.freeze({ query: part('query'), defaultQuery: part('defaultQuery') });
}

/**
 * Validates the `routes` option against the registry (known content types, their core actions, parameters that
 * parse) and returns the parameters of each route; throws `ConfigurationError` `CR_INVALID_ROUTES`.
 *
 * @example
 * const routes = createRouteDefaults({ 'api::page.page': { find: { query: { populate: { seo: true } } } } }, registry, rest);
 * routes('api::page.page', 'find'); // { query: { populate: { seo: 'true' } }, defaultQuery: {} }
 */
export function createRouteDefaults(routes: RoutesOptions | undefined, registry: Registry, rest: RestLimits): (uid: string, action: RouteAction) => RouteParams | undefined {
  const byRoute = new Map<string, RouteParams>();
  for (const [uid, actions] of Object.entries(routes ?? {})) {
    const ct = registry.contentTypes.get(uid);
    if (!ct || ct.internal) {
      const known = [...registry.contentTypes.values()].filter((t) => !t.internal).map((t) => t.uid);
      fail(`routes: unknown content type "${uid}"${suggestion(uid, known)}; the content types are ${known.join(', ')}`);
    }
    if (!isPlainObject(actions)) fail(`routes["${uid}"] must be an object keyed by route action`);
    const allowed = ct.kind === 'collectionType' ? COLLECTION_ACTIONS : SINGLE_ACTIONS;
    for (const [action, config] of Object.entries(actions)) {
      if (!allowed.includes(action as RouteAction)) fail(`routes["${uid}"]: unknown action "${action}"${suggestion(action, allowed)}; a ${ct.kind} has ${allowed.join(', ')}`);
      byRoute.set(`${uid}\0${action}`, routeParams(registry, rest, ct, action as RouteAction, config));
    }
  }
  return (uid, action) => byRoute.get(`${uid}\0${action}`);
}

/**
 * The request's parameters with the route's: `defaultQuery` under them, `query` over them (top-level keys).
 *
 * @example
 * mergeRouteParams({ query: { populate: 'seo' }, defaultQuery: { sort: 'title' } }, { populate: '*', sort: 'id' });
 * // { sort: 'id', populate: 'seo' }
 */
export function mergeRouteParams(route: RouteParams, request: Record<string, unknown>): Record<string, unknown> {
  return { ...route.defaultQuery, ...request, ...route.query };
}
