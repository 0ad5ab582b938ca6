/**
 * Strapi's error family. `name`, `status`, `message` and `details` are the wire contract: they are rendered by
 * `format/format-error.ts` into `{ data: null, error: { status, name, message, details } }`.
 */
export class ApplicationError extends Error {
  override name = 'ApplicationError';
  status = 400;
  details: Record<string, unknown>;

  constructor(message = 'An application error occured', details: Record<string, unknown> = {}) {
    super(message);
    this.details = details;
  }
}

/** 400: a body or query that does not validate. */
export class ValidationError extends ApplicationError {
  override name = 'ValidationError';
}

/** 400: pagination parameters that cannot be used together or are malformed. */
export class PaginationError extends ApplicationError {
  override name = 'PaginationError';
}

/** 401: a bearer token that matches no API token. */
export class UnauthorizedError extends ApplicationError {
  override name = 'UnauthorizedError';
  override status = 401;
  constructor(message = 'Missing or invalid credentials', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

/** 403: the caller has no permission for the action. */
export class ForbiddenError extends ApplicationError {
  override name = 'ForbiddenError';
  override status = 403;
  constructor(message = 'Forbidden', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

/** 404: unknown route or document. */
export class NotFoundError extends ApplicationError {
  override name = 'NotFoundError';
  override status = 404;
  constructor(message = 'Not Found', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

/** 413: a request body or upload over the configured limit. */
export class PayloadTooLargeError extends ApplicationError {
  override name = 'PayloadTooLargeError';
  override status = 413;
  constructor(message = 'Payload Too Large', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

/**
 * 503: the storage engine did not start (its connection cannot be made, its data file cannot be read). Sent at
 * once, with a `Retry-After` header, while start-up is retried in the background (docs/errors.md).
 */
export class ServiceUnavailableError extends ApplicationError {
  override name = 'ServiceUnavailableError';
  override status = 503;
  constructor(message = 'Service Unavailable: the storage engine is unavailable', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

/** One entry of `details.errors` of a body ValidationError. */
export interface FieldError {
  path: string[];
  message: string;
  name: 'ValidationError';
  value: unknown;
}

/**
 * Builds the ValidationError Strapi answers for field errors: the message is the first error's, or
 * "N errors occurred" when there are several.
 */
export function fieldValidationError(errors: FieldError[]): ValidationError {
  const message = errors.length === 1 ? errors[0]!.message : `${errors.length} errors occurred`;
  return new ValidationError(message, { errors });
}

/** `Invalid key <key>` for an unknown or forbidden key of the query (`source: "query"`) or the body. */
export function invalidKeyError(
  key: string,
  path: string | null,
  source: 'query' | 'body',
  param?: string,
): ValidationError {
  const message = path && path !== key && source === 'query' ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`;
  const details: Record<string, unknown> = { key, path, source };
  if (param !== undefined) details.param = param;
  return new ValidationError(message, details);
}

/**
 * `Invalid key <key>: polymorphic relations (<relation>) are not supported by this API`: a morph relation of the
 * schema, loaded but not served (docs/rest-api.md, "Morph relations"), named in the query or the body. The details
 * are those of `Invalid key`.
 *
 * @example
 * throw morphKeyError('related', 'morphToMany', 'related', 'body');
 */
export function morphKeyError(key: string, relation: string, path: string | null, source: 'query' | 'body', param?: string): ValidationError {
  const at = path && path !== key && source === 'query' ? ` at ${path}` : '';
  const details: Record<string, unknown> = { key, path, source };
  if (param !== undefined) details.param = param;
  return new ValidationError(`Invalid key ${key}${at}: polymorphic relations (${relation}) are not supported by this API`, details);
}
