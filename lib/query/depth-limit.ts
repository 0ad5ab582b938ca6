import { ValidationError } from '../errors';
import type { ParseScope } from './parse-scope';

/**
 * How many relations, media and components a `populate` tree or a `sort` path may go through by default.
 * Strapi's bracket form stops at 9 populate levels (qs depth 20); dotted paths (`a.b.c...`) have no such bound
 * and their cost grows with every level, so they are capped here (`rest.maxDepth`).
 */
export const DEFAULT_MAX_DEPTH = 10;

/**
 * The most distinct sort keys one `sort` parameter may name (repeated keys count once: only the first can
 * change the order). Each relation key is a join of its own, so thousands of them (possible once a host raises
 * Node's header size) made one request run for minutes.
 */
export const MAX_SORT_KEYS = 50;

/**
 * The most rows the populates of one read may join by default, all levels together (`rest.maxJoinedRows`).
 * Populate through to-many relations multiplies at every level (a page of 25 articles, their categories, the
 * categories' articles...): without a bound, one anonymous request answered 1.5 GB after minutes. The conformance
 * corpus needs at most a few hundred; a page of 100 rows with populate=* and a dozen components each stays far below.
 */
export const DEFAULT_MAX_JOINED_ROWS = 10_000;

/** The limit in force for this parse. */
export function maxDepth(scope: ParseScope): number {
  return scope.maxDepth ?? DEFAULT_MAX_DEPTH;
}

/** The scope one level further down a populate tree. */
export function deeper(scope: ParseScope): ParseScope {
  return { ...scope, depth: (scope.depth ?? 0) + 1 };
}

/**
 * Throws `400 Invalid <param> parameter: nested deeper than N levels` when `levels` exceeds the limit.
 *
 * @example
 * assertDepth(scope, 'sort', path.length - 1);
 */
export function assertDepth(scope: ParseScope, param: 'populate' | 'sort', levels: number): void {
  const max = maxDepth(scope);
  if (levels <= max) return;
  throw new ValidationError(`Invalid ${param} parameter: nested deeper than ${max} level${max === 1 ? '' : 's'}`, {
    key: param,
    path: null,
    source: 'query',
    param,
  });
}
