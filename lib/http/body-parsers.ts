import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import qs from 'qs';
import { ApplicationError, PayloadTooLargeError } from '../errors';
import { fromHttpClientError } from './error-handler';

/** A JSON body that JSON.parse rejected: Strapi answers 400 with the parser's message and no `details`. */
class JsonSyntaxError extends ApplicationError {
  override name = 'SyntaxError';
}

/**
 * JSON and urlencoded body parsers with a size limit; their errors become Strapi envelopes
 * (malformed JSON 400, too large 413).
 */
export function bodyParsers(limit: string | number): (RequestHandler | ErrorRequestHandler)[] {
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
  return [json, urlencoded, onError];
}

/** Re-parses an urlencoded body with qs's safe options (express's extended parser uses qs too). */
export const parseForm = (s: string): unknown => qs.parse(s, { allowPrototypes: false, depth: 20, arrayLimit: 100 });
