import { inspect } from 'node:util';
import type { Request } from 'express';
import { redactCredentials } from '../errors';
import { knownAbility } from './request-context';

/**
 * What `onError` is told about the request an unexpected error failed. No header but the ones named here, no
 * body and no query string: nothing that may carry a secret (the `Authorization` header, tokens, passwords).
 */
export interface ErrorContext {
  /** The status the client was answered (500 for an error content-router did not raise). */
  readonly status: number;
  /** `GET`, `POST`, ... */
  readonly method: string;
  /** The path as the client sent it, mount point included, without the query string (`/api/articles/abc`). */
  readonly path: string;
  /** `req.id` (set by pino-http, express-request-id, ...) or the `X-Request-Id` header, when there is one. */
  readonly requestId?: string;
  /** The request's `Content-Type` header, when there is one. */
  readonly contentType?: string;
  /**
   * Who asked: `public`, `api-token:<name>` or a `resolve` subject; absent when the error came before the
   * caller was known (a `resolve` hook that threw).
   */
  readonly subject?: string;
  /** The Express request itself, for a host that wants more (mind what it logs from it). */
  readonly request: Request;
}

/** The host's `onError(error, context)` option: where unexpected errors go instead of `console.error`. */
export type OnError = (error: unknown, context: ErrorContext) => void | Promise<void>;

/** Reports an unexpected error of `req`, answered with `status`; never throws. */
export type ReportError = (error: unknown, req: Request, status: number) => void;

/** Longest header value, and path, repeated in a log line. */
const MAX_HEADER = 200;
const MAX_PATH = 2048;

/**
 * The reporter of unexpected errors: `onError` when the host gives one, else `console.error` with the request
 * and the stack, as Express's own final handler logs them (`logerror` in express 5.x lib/application.js:
 * `if (this.get('env') !== 'test') console.error(err)`): nothing is written when the app's `env` setting
 * (`NODE_ENV`) is `test`. A throwing or rejecting `onError` is written with `console.error`, with the error it
 * was given; it never reaches the request.
 *
 * @example
 * const report = createErrorReporter((error, context) => logger.error({ err: error, ...context }, 'content-router'));
 * report(new Error('boom'), req, 500);
 */
export function createErrorReporter(onError?: OnError): ReportError {
  return (error, req, status) => {
    const context = errorContext(req, status);
    if (!onError) return logError(error, context);
    const failed = (failure: unknown): void => {
      logError(error, context);
      if (logsTo(req)) console.error(`content-router: options.onError failed: ${describeError(failure)}`);
    };
    try {
      const result = onError(error, context);
      if (result && typeof (result as Promise<void>).then === 'function') (result as Promise<void>).then(undefined, failed);
    } catch (failure) {
      failed(failure);
    }
  };
}

/** The request's context (never a header but X-Request-Id and Content-Type, never a body or a query). */
export function errorContext(req: Request, status: number): ErrorContext {
  const id = (req as { id?: unknown }).id;
  const requestId = typeof id === 'string' || typeof id === 'number' ? String(id) : header(req, 'x-request-id');
  const contentType = header(req, 'content-type');
  const subject = knownAbility(req)?.subject;
  return {
    status,
    method: req.method,
    path: pathOf(req),
    ...(requestId ? { requestId: clean(requestId) } : {}),
    ...(contentType ? { contentType: clean(contentType) } : {}),
    ...(subject !== undefined ? { subject } : {}),
    request: req,
  };
}

/** The request's path as the client sent it (mount point included), without the query string. */
export function pathOf(req: Request): string {
  const url = req.originalUrl ?? req.url ?? '';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function logError(error: unknown, context: ErrorContext): void {
  if (!logsTo(context.request)) return;
  const extra = [context.requestId && `request id ${context.requestId}`, context.contentType && `content-type ${context.contentType}`, context.subject && `caller ${clean(context.subject)}`].filter(Boolean);
  const where = `${context.method} ${clean(context.path, MAX_PATH)}${extra.length > 0 ? ` (${extra.join(', ')})` : ''}`;
  console.error(`content-router: unexpected error, answered ${context.status}: ${where}\n${describeError(error)}`);
}

/** Express's rule: the app's `env` setting (from NODE_ENV, default 'development'), silent in 'test'. */
function logsTo(req: Request): boolean {
  const env: unknown = typeof req.app?.get === 'function' ? req.app.get('env') : process.env.NODE_ENV;
  return env !== 'test';
}

/** The stack (which starts with the message), and the cause's; credentials in URLs redacted. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return redactCredentials(inspect(error, { depth: 2 }));
  const cause = error.cause instanceof Error ? `\n[cause]: ${error.cause.stack ?? error.cause.message}` : '';
  return redactCredentials(`${error.stack ?? `${error.name}: ${error.message}`}${cause}`);
}

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A header value or path fit for one log line: no control characters, at most `max` characters. */
function clean(text: string, max = MAX_HEADER): string {
  const printable = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return printable.length > max ? `${printable.slice(0, max)}…` : printable;
}
