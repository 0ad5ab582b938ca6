import type { Request, Response } from 'express';
import { ConfigurationError } from '../errors';
import { suggestion } from '../errors/did-you-mean';
import type { Registry } from '../schema';
import { PRIVATE } from './cache-headers';
import { getAbility } from './request-context';

/** How long a shared cache (a CDN) and a browser may keep an answer anyone may read, in seconds. */
export interface SharedCachePolicy {
  /** `max-age`: every cache, the browser's included. */
  maxAge?: number;
  /** `s-maxage`: shared caches only (a CDN), instead of `maxAge`. */
  sMaxAge?: number;
  /** `stale-while-revalidate` (RFC 5861): a cache may answer this long past freshness while it revalidates. */
  staleWhileRevalidate?: number;
  /** `stale-if-error` (RFC 5861): a cache may answer this long past freshness when the API answers an error. */
  staleIfError?: number;
}

/** A policy, or `false`: no Cache-Control (a shared cache may then store the answer only by its own heuristics). */
export type CachePolicy = SharedCachePolicy | false;

/** The read routes a policy can name: a collection type's list and one document (a single type has `find`). */
export type ReadRoute = 'find' | 'findOne';

/** The `cacheControl` option (docs/caching.md). */
export interface CacheControlOptions {
  /** The GET answers the Public role reads (no Authorization header, no caller recognised), every type; default `false`. */
  public?: CachePolicy;
  /** Per content type uid (`plugin::upload.file`: the media library): one policy for its reads, or one per route. */
  contentTypes?: Readonly<Record<string, CachePolicy | Readonly<Partial<Record<ReadRoute, CachePolicy>>>>>;
  /** Reads of drafts (`status=draft`): `'no-store'` (default) or `'private'`. */
  drafts?: 'no-store' | 'private';
}

/** Sets the Cache-Control of a 2xx read answer about to be sent (`draft`: a `status=draft` read). */
export type ReadCacheControl = (req: Request, res: Response, uid: string, route: ReadRoute, draft?: boolean) => void;

/** The media library's uid, whose routes are `find` (`GET /upload/files`) and `findOne` (`GET /upload/files/:id`). */
const MEDIA = 'plugin::upload.file';

const DIRECTIVES: readonly [keyof SharedCachePolicy, string][] = [
  ['maxAge', 'max-age'],
  ['sMaxAge', 's-maxage'],
  ['staleWhileRevalidate', 'stale-while-revalidate'],
  ['staleIfError', 'stale-if-error'],
];

/**
 * The header value of a policy: `public` and its directives in a fixed order; undefined for `false`.
 *
 * @example
 * cacheControlValue({ maxAge: 60, staleWhileRevalidate: 30 }); // 'public, max-age=60, stale-while-revalidate=30'
 */
export function cacheControlValue(policy: CachePolicy | undefined): string | undefined {
  if (!policy) return undefined;
  return ['public', ...DIRECTIVES.filter(([key]) => policy[key] !== undefined).map(([key, name]) => `${name}=${policy[key]!}`)].join(', ');
}

function fail(message: string): never {
  throw new ConfigurationError('CR_INVALID_OPTIONS', message);
}

function routesOf(registry: Registry, uid: string): readonly ReadRoute[] {
  if (uid === MEDIA) return ['find', 'findOne'];
  const ct = registry.contentTypes.get(uid);
  if (!ct || ct.internal) {
    const known = [...[...registry.contentTypes.values()].filter((t) => !t.internal).map((t) => t.uid), MEDIA];
    fail(`options.cacheControl.contentTypes: unknown content type "${uid}"${suggestion(uid, known)}; the content types are ${known.join(', ')}`);
  }
  return ct.kind === 'collectionType' ? ['find', 'findOne'] : ['find'];
}

type Entry = NonNullable<CacheControlOptions['contentTypes']>[string];

/** `{ find, findOne }` rather than a policy: the option's schema lets only those keys through. */
function isPerRoute(entry: Entry): entry is Readonly<Partial<Record<ReadRoute, CachePolicy>>> {
  return entry !== false && ('find' in entry || 'findOne' in entry);
}

/**
 * Checks the `cacheControl` option against the registry (its shape is checked by the options' schema) and gives
 * the function the read routes call before sending a 2xx answer:
 * - a draft read: `no-store` (or `private`, option `drafts`), replacing the `private` of cache-headers.ts;
 * - any other answer with a Cache-Control already (`private` for a caller, or the host app's): kept;
 * - an anonymous answer: the route's policy (content type's route, content type's, then `public`), with
 *   `Vary: Strapi-Response-Format` since that header changes the bytes; none configured, no header (today's).
 *
 * @example
 * const set = createCacheControl({ public: { maxAge: 60 } }, registry);
 * set(req, res, 'api::article.article', 'find'); // Cache-Control: public, max-age=60 for an anonymous caller
 */
export function createCacheControl(options: CacheControlOptions | undefined, registry: Registry): ReadCacheControl {
  const fallback = cacheControlValue(options?.public);
  const byRoute = new Map<string, string | undefined>();
  for (const [uid, entry] of Object.entries(options?.contentTypes ?? {})) {
    const routes = routesOf(registry, uid);
    if (isPerRoute(entry)) {
      for (const route of Object.keys(entry) as ReadRoute[]) {
        if (!routes.includes(route)) fail(`options.cacheControl.contentTypes["${uid}"]: a single type has no "${route}" route (it has find)`);
        byRoute.set(`${uid}\0${route}`, cacheControlValue(entry[route]));
      }
    } else {
      for (const route of routes) byRoute.set(`${uid}\0${route}`, cacheControlValue(entry as CachePolicy));
    }
  }
  const draftValue = options?.drafts ?? 'no-store';
  // Without a policy (the default), only draft reads get a header: the others skip the look-ups below.
  const noPolicy = fallback === undefined && [...byRoute.values()].every((value) => value === undefined);
  return (req, res, uid, route, draft = false) => {
    if ((noPolicy && !draft) || res.headersSent) return;
    const current = res.get('Cache-Control');
    if (draft) {
      if (current === undefined || current === PRIVATE) res.set('Cache-Control', draftValue);
      return;
    }
    if (current !== undefined || req.headers.authorization !== undefined || getAbility(req).subject !== 'public') return;
    const key = `${uid}\0${route}`;
    const value = byRoute.has(key) ? byRoute.get(key) : fallback;
    if (value === undefined) return;
    res.set('Cache-Control', value);
    res.vary('Strapi-Response-Format');
  };
}
