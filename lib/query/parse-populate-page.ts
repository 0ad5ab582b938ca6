import { invalidKey, invalidValue, type ParseScope } from './parse-scope';
import { parseBoolean } from './cast-value';
import type { PopulateNode } from './types';

/** The keys of per-parent populate pagination (Strapi's `start`/`limit`, and our `withCount`). */
export const POPULATE_PAGE_KEYS = ['start', 'limit', 'withCount'] as const;

/** Per-parent pagination of one populated to-many relation (the fields of PopulateNode it sets). */
export type PopulatePage = Pick<PopulateNode, 'start' | 'limit' | 'withCount'>;

/** Where the populated relation is, for the checks of {@link parsePopulatePage}. */
export interface PagedRelation {
  /** The populate key (`articles`). */
  readonly key: string;
  /** Several rows per parent: a to-many relation (either side), media `multiple`, `localizations`. */
  readonly multi: boolean;
  /** The parent is a content type (not a component or dynamic zone item). */
  readonly inContentType: boolean;
  /** The parent content type has an attribute named `meta` (where withCount would answer). */
  readonly parentHasMeta: boolean;
  /** `count: true` is asked on the same relation. */
  readonly count: boolean;
}

const INTEGER = /^\s*\d+\s*$/;

/**
 * `start`, `limit` and `withCount` of a populated relation's options: `limit` at most `maxLimit` (rest.maxLimit),
 * `start` at most Number.MAX_SAFE_INTEGER (MongoDB's `$skip` takes a 64-bit integer), both non-negative integers;
 * `withCount` a boolean as Strapi reads `pagination[withCount]`. When the app asked for Strapi's answer
 * (`rest.populatePagination: false`: no `scope.populatePage`), each key is Strapi 5's `400 Invalid key`. They
 * apply per parent row, to relations that hold several rows of a content type's row; anywhere else (a to-one
 * relation, single media, a relation inside a component, with `count`) they are a 400 naming the key.
 *
 * @example
 * parsePopulatePage(scope, { limit: '6', withCount: 'true' }, relation) // { limit: 6, withCount: true }
 */
export function parsePopulatePage(scope: ParseScope, options: Readonly<Record<string, unknown>>, relation: PagedRelation): PopulatePage {
  const asked = POPULATE_PAGE_KEYS.filter((k) => options[k] !== undefined);
  if (asked.length === 0) return {};
  const first = asked[0]!;
  const limits = scope.populatePage;
  if (!limits) throw invalidKey(scope, first, relation.key);
  const refuse = (reason: string) => invalidValue(scope, first, relation.key, reason);
  if (!relation.inContentType) throw refuse('populate pagination applies to relations of content types, not inside components or dynamic zones');
  if (!relation.multi) throw refuse(`${relation.key} holds at most one entry`);
  if (relation.count) throw refuse('count answers the total only; use withCount to get the rows and the total');
  const page: { -readonly [K in keyof PopulatePage]: PopulatePage[K] } = {};
  if (options.start !== undefined) page.start = integer(scope, 'start', relation.key, options.start, Number.MAX_SAFE_INTEGER);
  if (options.limit !== undefined) page.limit = integer(scope, 'limit', relation.key, options.limit, limits.maxLimit);
  if (options.withCount !== undefined) {
    const withCount = parseBoolean(options.withCount);
    if (withCount === undefined) throw invalidValue(scope, 'withCount', relation.key, 'expected true or false');
    if (withCount && relation.parentHasMeta) throw invalidValue(scope, 'withCount', relation.key, 'the type has an attribute named meta, where the total would be answered');
    page.withCount = withCount;
  }
  return page;
}

function integer(scope: ParseScope, key: string, at: string, raw: unknown, max: number): number {
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !INTEGER.test(text)) throw invalidValue(scope, key, at, 'expected a non-negative integer');
  const n = Number(text.trim());
  if (!Number.isSafeInteger(n) || n > max) throw invalidValue(scope, key, at, `expected at most ${max}`);
  return n;
}
