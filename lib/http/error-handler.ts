import type { ErrorRequestHandler, RequestHandler } from 'express';
import createDebug from 'debug';
import { readLimitError } from '../documents/populate-budget';
import { ApplicationError, NotFoundError } from '../errors';
import { formatError } from '../format';

const debug = createDebug('content-router:error');

/**
 * A client error raised by Express itself or by body-parser (the router's "Failed to decode param" URIError,
 * body-parser's errors, which carry a `type` such as 'charset.unsupported'): kept as a client error in the
 * envelope, with its 4xx status and message, instead of becoming a 500. Other errors that merely carry a
 * `status` (from a hook, an engine) stay unexpected: a bare 500, unless `fromParser` says the error comes
 * straight from the body parsers (whose zlib errors are wrapped as a bare http-errors 400).
 */
export function fromHttpClientError(err: unknown, fromParser = false): ApplicationError | undefined {
  if (err instanceof ApplicationError || err === null || typeof err !== 'object') return undefined;
  const { status, message, type, expose } = err as { status?: unknown; message?: unknown; type?: unknown; expose?: unknown };
  const trusted = err instanceof URIError || typeof type === 'string' || (fromParser && expose === true);
  if (!trusted) return undefined;
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  const e = new ApplicationError(typeof message === 'string' && message !== '' ? message : 'Bad Request');
  e.status = status;
  if (status === 400) e.name = 'BadRequestError';
  return e;
}

/**
 * Renders every error as Strapi's envelope; unexpected ones are logged (debug) and answered as a bare 500. A read
 * stopped by its limits (the engine's ReadLimitError, e.g. a write's find over `maxTimeMS`) is a 400.
 */
export const errorHandler: ErrorRequestHandler = (err, _req, res, next) => {
  if (res.headersSent) return next(err);
  const { status, body } = formatError(fromHttpClientError(err) ?? readLimitError(err));
  if (status >= 500) debug('unexpected error: %O', err);
  if (body.error.details === undefined) delete body.error.details;
  res.status(status).json(body);
};

/** 404 for any path no route matched. */
export const notFound: RequestHandler = (_req, _res, next) => next(new NotFoundError());

/**
 * What koa-router's `allowedMethods()` answers on a known path for a method it does not serve (as Strapi
 * does): 405 text/plain "Method Not Allowed" with an `Allow` header, and 200 with an empty body for OPTIONS.
 * `allowed` lists the served methods; HEAD is added in front when GET is served.
 *
 * @example
 * router.route('/articles').get(find).post(create).all(methodNotAllowed(['GET', 'POST']));
 */
export function methodNotAllowed(allowed: readonly string[]): RequestHandler {
  const allow = (allowed.includes('GET') ? ['HEAD', ...allowed] : [...allowed]).join(', ');
  return (req, res) => {
    res.set('Allow', allow);
    if (req.method === 'OPTIONS') {
      res.status(200).type('text/plain').send('');
      return;
    }
    res.status(405).type('text/plain').send('Method Not Allowed');
  };
}
