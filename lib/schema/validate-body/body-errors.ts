import { fieldValidationError, ValidationError } from '../../errors';
import type { FieldError } from '../../errors';

/** The deepest nesting accepted in a request body (objects and arrays); deeper is a 400. */
export const MAX_BODY_DEPTH = 48;

/**
 * The error Strapi answers when a unique attribute's value is already used (the documents service runs the
 * check against the database): `This attribute must be unique`.
 *
 * @example
 * throw uniqueError(['email'], 'ann@example.com');
 */
export function uniqueError(path: string[], value: unknown): ValidationError {
  return fieldValidationError([{ path, message: 'This attribute must be unique', name: 'ValidationError', value }]);
}

/**
 * A field error on the whole entry (`path: []`), as Strapi reports failed relation checks, e.g.
 * `1 relation(s) of type plugin::upload.file associated with this entity do not exist`.
 *
 * @example
 * throw fieldValidationError([entityFieldError('Invalid relations', data)]);
 */
export function entityFieldError(message: string, value: unknown): FieldError {
  return { path: [], message, name: 'ValidationError', value };
}

/** `Invalid key <key>` for the body; `path` is left out of the details when undefined (id, documentId). */
export function bodyKeyError(key: string, path: string | null | undefined): ValidationError {
  const details: Record<string, unknown> = { key };
  if (path !== undefined) details.path = path;
  details.source = 'body';
  return new ValidationError(`Invalid key ${key}`, details);
}

/** A relation or media value of a shape the Content API does not accept. */
export function relationShapeError(path: readonly string[]): ValidationError {
  return new ValidationError(`Invalid relation payload for ${path.join('.')}`, {});
}

/**
 * Throws a 400 when `value` nests objects/arrays deeper than `max`, or holds a `__proto__` key anywhere
 * (iterative: a hostile body cannot overflow the stack here).
 */
export function assertSafeStructure(value: unknown, max = MAX_BODY_DEPTH): void {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) throw new ValidationError(`The request body is nested too deeply (at most ${max} levels)`, {});
    if (!Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, '__proto__')) throw bodyKeyError('__proto__', null);
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const c of children) if (c !== null && typeof c === 'object') stack.push([c, depth + 1]);
  }
}
