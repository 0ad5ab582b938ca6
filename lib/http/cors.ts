import type { Request, RequestHandler } from 'express';
import cors from 'cors';

/**
 * The `cors` option: Strapi's `strapi::cors` settings (config/middlewares.js), each defaulting as Strapi's.
 *
 * @example
 * cors: { origin: ['https://www.example.com'], credentials: false }
 */
export interface CorsOptions {
  /**
   * The origins answered: `'*'` (default: every origin; with `credentials` the request's origin is echoed), one
   * origin, several (`'https://a.com, https://b.com'` or an array: the request's origin when listed, no CORS headers
   * otherwise), or a function of the request returning one of these (Strapi passes its koa context; here the Express
   * request, whose `get('Origin')` reads the header as koa's `ctx.get` does).
   */
  origin?: string | readonly string[] | ((req: Request) => string | readonly string[] | Promise<string | readonly string[]>);
  /** `Access-Control-Allow-Methods` of a preflight; default GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS. */
  methods?: string | readonly string[];
  /** `Access-Control-Allow-Headers` of a preflight; default Content-Type, Authorization, Origin, Accept. */
  headers?: string | readonly string[];
  /** `Access-Control-Expose-Headers` of the other requests; default none. */
  expose?: string | readonly string[];
  /** `Access-Control-Max-Age` of a preflight, in seconds; default 31536000 (a year). `0`: not sent. */
  maxAge?: number;
  /** `Access-Control-Allow-Credentials: true`; default true. */
  credentials?: boolean;
  /**
   * Strapi's koa setting of the same name, accepted and without effect: the CORS headers are set before the route
   * runs and stay on error answers, as Strapi's own error middleware keeps them.
   */
  keepHeadersOnError?: boolean;
}

/** Strapi 5's defaults (`packages/core/core/src/middlewares/cors.ts`). */
export const STRAPI_CORS_DEFAULTS = {
  origin: '*',
  maxAge: 31536000,
  credentials: true,
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
  headers: ['Content-Type', 'Authorization', 'Origin', 'Accept'],
  keepHeadersOnError: false,
} as const;

/**
 * The `Access-Control-Allow-Origin` Strapi answers a request from `requestOrigin` with, or false for none: a list
 * (array, or a string with commas) echoes the request's origin when listed; any other string is answered as it is,
 * except `'*'` with credentials, which echoes the request's origin (`@koa/cors` 5, as browsers refuse `*` there).
 */
function allowedOrigin(list: string | readonly string[], requestOrigin: string, credentials: boolean): string | false {
  const origins = typeof list === 'string' ? list.split(',').map((o) => o.trim()) : list;
  if (typeof list !== 'string' || origins.length > 1) return origins.includes(requestOrigin) ? requestOrigin : false;
  if (list === '') return false;
  return list === '*' && credentials ? requestOrigin : list;
}

/**
 * Strapi's `strapi::cors` as Express middleware, with the `cors` package writing the headers: no CORS headers
 * without an `Origin` header (a `Vary: Origin` always), a preflight (`OPTIONS` with `Access-Control-Request-Method`)
 * answered 204 at once, and the headers of the other requests set before the route runs.
 *
 * @example
 * router.use(createCorsMiddleware(true)); // Strapi's defaults
 */
export function createCorsMiddleware(option: true | CorsOptions): RequestHandler {
  const settings = { ...STRAPI_CORS_DEFAULTS, ...(option === true ? {} : option) };
  const credentials = settings.credentials === true;
  const headers = cors<Request>((req, done) => {
    const requestOrigin = req.get('Origin') ?? '';
    Promise.resolve(typeof settings.origin === 'function' ? settings.origin(req) : settings.origin).then(
      (list) =>
        done(null, {
          origin: allowedOrigin(list, requestOrigin, credentials),
          credentials,
          methods: settings.methods as string | string[],
          allowedHeaders: settings.headers as string | string[],
          // on the answers a script reads, not on a preflight (as @koa/cors)
          ...(option !== true && option.expose !== undefined && req.method !== 'OPTIONS' ? { exposedHeaders: option.expose as string | string[] } : {}),
          ...(settings.maxAge ? { maxAge: settings.maxAge } : {}),
          optionsSuccessStatus: 204,
        }),
      (error: unknown) => done(error as Error),
    );
  });
  return (req, res, next) => {
    res.vary('Origin');
    if (!req.get('Origin')) return next();
    if (req.method === 'OPTIONS' && !req.get('Access-Control-Request-Method')) return next(); // not a preflight
    headers(req, res, next);
  };
}
