import type { Request, RequestHandler, Response } from 'express';
import type { Ability } from '../auth/types';
import type { ResponseCache } from '../cache/response-cache';
import { ifNoneMatchFails } from './conditional-get';
import { knownAbility, rawQueryString } from './request-context';

/** The headers an entry keeps: the ones the route set on its 200 besides those of the body itself (CDN tags: the `cacheTags` option). */
const KEPT = ['content-type', 'cache-control', 'vary', 'xkey', 'surrogate-key', 'cache-tag'] as const;

/**
 * The query string with its parameters ordered by top-level name (a stable sort: `sort=a&sort=b` keeps its
 * order, and so does everything under one name, such as `populate[a]` before `populate[b]`), so that
 * `?locale=fr&sort=title` and `?sort=title&locale=fr` share an entry. Names are compared as written.
 *
 * @example
 * normalizeQuery('sort=title&locale=fr&populate[b]=true&populate[a]=true'); // 'locale=fr&populate[b]=true&populate[a]=true&sort=title'
 */
export function normalizeQuery(raw: string): string {
  const name = (part: string): string => part.split(/[=[]/, 1)[0]!;
  return raw
    .split('&')
    .filter((part) => part !== '')
    .map((part, i) => ({ part, name: name(part), i }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.i - b.i))
    .map((p) => p.part)
    .join('&');
}

/** Callers whose answers depend only on their grants: the Public role and API tokens (never a user's own). */
function sharesByGrants(ability: Ability): boolean {
  return ability.subject === 'public' || ability.subject.startsWith('api-token:');
}

function bypasses(req: Request): boolean {
  const directives = req.headers['cache-control'];
  return directives !== undefined && /(?:^|,)\s*no-cache\s*(?:,|$)/i.test(directives);
}

/**
 * The response cache in front of the content routes (docs/caching.md): a `GET`/`HEAD` of the Public role or an
 * API token is answered from the cache when an entry has its key (the caller's ability, the mount path, the path,
 * the normalised query, `Strapi-Response-Format`, `strapi-encode-source-maps`), else from the route, whose `200` is stored with what it read.
 * `Cache-Control: no-cache` on the request skips the lookup (the route answers, and refreshes the entry).
 */
export function responseCacheMiddleware(cache: ResponseCache): RequestHandler {
  const callers = new WeakMap<Ability, number>();
  let nextCaller = 0;
  const keyOf = (req: Request, ability: Ability): string => {
    let caller = callers.get(ability);
    if (caller === undefined) callers.set(ability, (caller = ++nextCaller));
    // The request headers that change the bytes (send.ts): the response format and content source maps.
    const format = String(req.headers['strapi-response-format'] ?? '').toLowerCase();
    const sourceMaps = String(req.headers['strapi-encode-source-maps'] ?? '');
    return `${caller}\0${format}\0${sourceMaps}\0${req.baseUrl}${req.path}?${normalizeQuery(rawQueryString(req))}`;
  };
  return async (req, res, next) => {
    const ability = knownAbility(req);
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !ability || !sharesByGrants(ability)) return next();
    const key = keyOf(req, ability);
    // Several routers on one database: first drop what the others wrote (one read of the versions).
    await cache.sync();
    if (!bypasses(req)) {
      const hit = cache.get(key);
      if (hit) {
        // A 304 answers first, with the headers of a 200 but those of the body (RFC 9110 section 15.4.5): no body work.
        const condition = req.headers['if-none-match'];
        const notModified = condition !== undefined && ifNoneMatchFails(condition, hit.etag);
        for (const name in hit.headers) if (!notModified || name !== 'content-type') res.setHeader(name, hit.headers[name]!);
        res.setHeader('ETag', hit.etag);
        if (notModified) {
          res.removeHeader('Content-Type'); // one the host app set before the router
          res.statusCode = 304;
          res.end();
          return;
        }
        res.status(200).send(hit.body);
        return;
      }
    }
    cache.record((record) => {
      const send = res.send;
      res.send = function sendAndStore(this: Response, body?: unknown): Response {
        const status = this.statusCode;
        const result = send.call(this, body);
        const etag = this.get('ETag');
        const cacheControl = this.get('Cache-Control');
        if (status === 200 && this.statusCode === 200 && etag !== undefined && !cacheControl?.includes('no-store') && (typeof body === 'string' || Buffer.isBuffer(body))) {
          const headers: Record<string, string> = {};
          for (const name of KEPT) {
            const value = this.get(name);
            if (value !== undefined) headers[name] = value;
          }
          cache.store(key, record, { body: typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body), etag, headers });
        }
        return result;
      };
      next();
    });
  };
}
