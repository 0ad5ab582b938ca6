import type { ErrorRequestHandler, RequestHandler } from 'express';
import createDebug from 'debug';
import { NotFoundError } from '../errors';
import { formatError } from '../format';

const debug = createDebug('content-router:error');

/** Renders every error as Strapi's envelope; unexpected ones are logged (debug) and answered as a bare 500. */
export const errorHandler: ErrorRequestHandler = (err, _req, res, next) => {
  if (res.headersSent) return next(err);
  const { status, body } = formatError(err);
  if (status >= 500) debug('unexpected error: %O', err);
  if (body.error.details === undefined) delete body.error.details;
  res.status(status).json(body);
};

/** 404 for any path no route matched. */
export const notFound: RequestHandler = (_req, _res, next) => next(new NotFoundError());

/** 405 text/plain for a known path with a method it does not serve (what Strapi's router answers). */
export const methodNotAllowed: RequestHandler = (_req, res) => {
  res.status(405).type('text/plain').send('Method Not Allowed');
};
