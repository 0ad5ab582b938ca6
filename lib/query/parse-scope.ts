import { invalidKeyError, ValidationError } from '../errors';
import type { Registry } from '../schema';
import type { QueryContext } from './types';

/** The query parameter a problem is reported under (`details.param`). */
export type QueryParam = 'filters' | 'sort' | 'fields' | 'populate';

/** What every sub-parser needs: the model, the caller, and the parameter being parsed (for error details). */
export interface ParseScope {
  readonly registry: Registry;
  readonly context: QueryContext;
  readonly param: QueryParam;
  /**
   * When set, permission problems are recorded here (the first one wins) instead of thrown, so that the
   * schema checks of the whole parameter run first, as in Strapi (a private field behind a forbidden
   * relation is reported as the private field).
   */
  readonly deferred?: { error?: ValidationError };
  /** How many populate levels lie above the value being parsed (0 at the top). */
  readonly depth?: number;
  /** The most relations/components a populate tree or sort path may go through (`rest.maxDepth`). */
  readonly maxDepth?: number;
  /**
   * Per-parent populate pagination (`populate[<rel>][start|limit|withCount]`, parse-populate-page) is accepted,
   * `limit` at most `maxLimit`; absent: those keys are Strapi 5's `400 Invalid key` (rest.populatePagination false).
   */
  readonly populatePage?: { readonly maxLimit: number };
}

/** Runs `parse` with permission errors deferred to the end of the parameter. */
export function withDeferredPermissions<T>(scope: ParseScope, parse: (scope: ParseScope) => T): T {
  const deferred: { error?: ValidationError } = {};
  const result = parse({ ...scope, deferred });
  if (deferred.error) throw deferred.error;
  return result;
}

/** `Invalid key <key>` (at `path`) reported under the scope's parameter. */
export function invalidKey(scope: ParseScope, key: string, path: string | null): ValidationError {
  return invalidKeyError(key, path, 'query', scope.param);
}

/**
 * A 400 for a value that cannot be used (Strapi answers 500 to most of these: our deliberate difference).
 * The details have the same shape as `Invalid key`, so clients can point at the key.
 */
export function invalidValue(scope: ParseScope, key: string, path: string | null, reason: string): ValidationError {
  const where = path && path !== key ? ` at ${path}` : '';
  return new ValidationError(`Invalid value for ${key}${where}: ${reason}`, { key, path, source: 'query', param: scope.param });
}

/** Joins an attribute path (`null` at the root). */
export function joinPath(parent: string | null, key: string): string {
  return parent === null ? key : `${parent}.${key}`;
}
