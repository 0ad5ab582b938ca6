import type { Attribute, ComponentAttribute, DynamicZoneAttribute, MediaAttribute, RelationAttribute, ScalarAttribute } from '../schema';

/** Strapi's filter operators (without the logical ones). */
export type FilterOperator =
  | '$eq' | '$eqi' | '$ne' | '$nei' | '$lt' | '$lte' | '$gt' | '$gte' | '$in' | '$notIn'
  | '$contains' | '$notContains' | '$containsi' | '$notContainsi' | '$null' | '$notNull' | '$between'
  | '$startsWith' | '$startsWithi' | '$endsWith' | '$endsWithi';

/**
 * A validated filter tree. Values are already cast to the attribute's stored type (numbers, booleans,
 * ISO strings for dates); `$in`/`$notIn`/`$between` carry arrays, `$null`/`$notNull` a boolean.
 */
export type FilterNode =
  | { readonly type: 'and' | 'or'; readonly children: readonly FilterNode[] }
  | { readonly type: 'not'; readonly child: FilterNode }
  | { readonly type: 'scalar'; readonly field: string; readonly attribute: ScalarAttribute; readonly operator: FilterOperator; readonly value: unknown }
  /** At least one related row (of `target`) matches `where`. */
  | { readonly type: 'relation'; readonly field: string; readonly attribute: RelationAttribute | MediaAttribute; readonly target: string; readonly where: FilterNode }
  /** The embedded component (or one item of a repeatable one) matches `where`. */
  | { readonly type: 'component'; readonly field: string; readonly attribute: ComponentAttribute; readonly where: FilterNode };

/** One sort key. `path` walks relations/components down to a scalar: ['author', 'name']. */
export interface SortItem {
  readonly path: readonly string[];
  readonly order: 'asc' | 'desc';
}

export type Pagination =
  | { readonly kind: 'page'; readonly page: number; readonly pageSize: number; readonly withCount: boolean }
  | { readonly kind: 'offset'; readonly start: number; readonly limit: number; readonly withCount: boolean }
  | CursorPagination;

/**
 * Keyset ("cursor") pagination (`pagination[cursor]`, lib/query/parse-cursor): `limit` rows after the position
 * `after` (the range filter on the sort keys, absent on the first page), `keys` the dotted paths of the sort keys
 * (ending with `id`) whose values the last row's cursor holds, and `next` the function that seals those values
 * into the opaque `nextCursor` of this query.
 */
export interface CursorPagination {
  readonly kind: 'cursor';
  readonly limit: number;
  readonly withCount: boolean;
  readonly keys: readonly string[];
  readonly after?: FilterNode;
  readonly next: (values: readonly unknown[]) => string;
}

/**
 * What to populate under one relation, media, component or dynamic zone attribute.
 * `fields: null` means every scalar field. For dynamic zones `on` (when given) lists the components to keep,
 * each with its own node; `populate` then applies to every component.
 */
export interface PopulateNode {
  readonly attribute: RelationAttribute | MediaAttribute | ComponentAttribute | DynamicZoneAttribute | LocalizationsAttribute;
  readonly fields: readonly string[] | null;
  readonly filters?: FilterNode;
  readonly sort: readonly SortItem[];
  readonly populate: PopulateMap;
  readonly on?: Readonly<Record<string, PopulateNode>>;
  readonly count?: boolean;
  /** Per parent row: the joined rows to skip (`populate[<rel>][start]`), after filters and sort. */
  readonly start?: number;
  /** Per parent row: the most joined rows to keep (`populate[<rel>][limit]`). */
  readonly limit?: number;
  /** Also answer each parent's total of joined rows (filters applied), in the parent's `meta.<rel>.count`. */
  readonly withCount?: boolean;
}

export type PopulateMap = Readonly<Record<string, PopulateNode>>;

/** The pseudo attribute `localizations`: the same document in the other locales. */
export interface LocalizationsAttribute {
  readonly kind: 'localizations';
  readonly name: 'localizations';
  readonly target: string;
}

export type Status = 'published' | 'draft';

/** A validated read query on one content type. */
export interface Query {
  readonly filters?: FilterNode;
  readonly sort: readonly SortItem[];
  readonly pagination: Pagination;
  /** Scalar fields to return; null = all. `id` and `documentId` are always returned. */
  readonly fields: readonly string[] | null;
  readonly populate: PopulateMap;
  /** A configured locale, '*' for all, or undefined when the type is not localized. */
  readonly locale?: string;
  readonly status: Status;
  /**
   * The most rows populate may join for this read, all levels together (`rest.maxJoinedRows`); none when
   * absent (queries built by host code). Over it, the read answers a 400 (docs/security.md).
   */
  readonly maxJoinedRows?: number;
}

/** Who is asking: used by the parser to hide types the caller cannot `find`. */
export interface QueryContext {
  canFind(uid: string): boolean;
}

export type { Attribute };
