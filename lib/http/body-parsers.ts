import bytes from 'bytes';
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import qs from 'qs';
import { ApplicationError, PayloadTooLargeError } from '../errors';
import { drainRequest } from '../media';
import { fromHttpClientError } from './error-handler';

/** A JSON body that JSON.parse rejected: Strapi answers 400 with the parser's message and no `details`. */
class JsonSyntaxError extends ApplicationError {
  override name = 'SyntaxError';
}

/** body-parser's (type-is's) test: a request without either header has no body and is not parsed. */
const hasBody = (req: Request): boolean => req.headers['transfer-encoding'] !== undefined || !isNaN(Number(req.headers['content-length']));

/**
 * JSON and urlencoded body parsers with a size limit, as one middleware; their errors become Strapi envelopes
 * (malformed JSON 400, too large 413). A request without a body (every GET of the Content API) goes straight on.
 * A body whose `Content-Length` is over the limit is answered 413 at once, and its rest is read and thrown away
 * (at most `DRAIN_LIMIT` bytes, then the connection is closed): body-parser would read all of it, however large,
 * before answering. A chunked body over the limit is answered by body-parser once it has read it all.
 */
export function bodyParsers(limit: string | number): RequestHandler {
  const maxBytes = typeof limit === 'number' ? limit : bytes.parse(limit);
  const json = express.json({ limit, type: ['application/json', 'application/*+json'] });
  const urlencoded = express.urlencoded({ limit, extended: true, parameterLimit: 1000 });
  const onError: ErrorRequestHandler = (err: { type?: string; message?: string; status?: number }, _req, _res, next) => {
    if (err instanceof ApplicationError) return next(err);
    if (err?.type === 'entity.too.large') return next(new PayloadTooLargeError());
    if (err?.type === 'entity.parse.failed') {
      const e = new JsonSyntaxError(err.message ?? 'Invalid JSON');
      (e as { details?: unknown }).details = undefined;
      return next(e);
    }
    next(fromHttpClientError(err, true) ?? err);
  };
  return (req, res, next) => {
    if (!hasBody(req)) return next();
    if (maxBytes !== null && Number(req.headers['content-length']) > maxBytes) {
      drainRequest(req);
      return next(new PayloadTooLargeError());
    }
    const fail = (err: unknown): void => {
      void onError(err, req, res, next);
    };
    json(req, res, (err?: unknown) => (err ? fail(err) : urlencoded(req, res, (err2?: unknown) => (err2 ? fail(err2) : next()))));
  };
}

/** Re-parses an urlencoded body with qs's safe options (express's extended parser uses qs too). */
export const parseForm = (s: string): unknown => qs.parse(s, { allowPrototypes: false, depth: 20, arrayLimit: 100 });
