import type { ErrorRequestHandler, RequestHandler } from 'express';
import createDebug from 'debug';
import { readLimitError } from '../documents/populate-budget';
import { EngineUnavailableError } from '../engine/types';
import { ApplicationError, NotFoundError, ServiceUnavailableError } from '../errors';
import { formatError } from '../format';
import { pathOf, type ReportError } from './report-error';

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
 * Renders every error as Strapi's envelope. An unexpected one (answered 500, or any 5xx but the 503 of an
 * engine that did not start, which start-up logs once) is answered first, with no internals, then handed to
 * `report` (the host's `onError`, or console.error). It is not passed on with `next(err)`: Express's final
 * handler would answer it with the stack (outside production) as HTML. Every error is written to
 * `DEBUG=content-router:error`: client errors by status and name only (their message and details may echo the body).
 * A read stopped by its limits (the engine's ReadLimitError, e.g. a write's find over `maxTimeMS`) is a 400; a
 * database that cannot be reached (EngineUnavailableError) a 503 with `Retry-After`, not reported.
 *
 * @example
 * router.use(createErrorHandler(createErrorReporter(options.onError)));
 */
export function createErrorHandler(report: ReportError): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err); // Express's final handler logs it and closes the connection
    const unavailable = err instanceof EngineUnavailableError;
    const { status, body } = formatError(fromHttpClientError(err) ?? (unavailable ? outage() : readLimitError(err)));
    if (status >= 500) debug('%d %s %s: %O', status, req.method, pathOf(req), err);
    else debug('%d %s %s: %s', status, req.method, pathOf(req), body.error.name); // its message and details may echo the body
    if (body.error.details === undefined) delete body.error.details;
    if (unavailable) res.set('Retry-After', String(RETRY_AFTER_SECONDS));
    res.status(status).json(body);
    if (status >= 500 && !(err instanceof ServiceUnavailableError) && !unavailable) report(err, req, status);
  };
}

/** How long a client is asked to wait when the database cannot be reached (as while the engine starts). */
const RETRY_AFTER_SECONDS = 5;

/**
 * The 503 of a database that cannot be reached after start-up (the engine's EngineUnavailableError): an outage,
 * logged once by the engine's connection watch, not an unexpected error reported per request. No cause in the
 * answer (it names hosts).
 */
function outage(): ServiceUnavailableError {
  return new ServiceUnavailableError('Service Unavailable: the database cannot be reached', { reason: 'the database cannot be reached (the cause is in the server log)' });
}

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
