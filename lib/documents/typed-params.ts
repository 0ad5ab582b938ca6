/**
 * The Document Service's parameter types, computed from a document type `D`. With a generated type
 * (`content-router types`, docs/types.md) every key is checked: `filters`, `fields`, `populate` and `sort` name
 * only what the query parsers accept for that type, so a typo is a compile error instead of a 400 at run time.
 * With `ContentDocument` (no generated types: it has a string index) they are the loose forms, as before.
 *
 * What the generated types say, and these types read: scalar attributes and the system fields are always present
 * (required keys); relations, media, components, dynamic zones and `localizations` are optional (present when
 * populated); a relation's or a media's target has a `documentId`, a dynamic zone's items a `__component`.
 * Private attributes and passwords are absent, and the parsers refuse them in filters, fields and sort too.
 * Types only: the parsers (lib/query/) still validate every value at run time.
 */

/** A document as the Document Service answers it: its `id` and `documentId`, and the selected attributes. */
export type ContentDocument = Record<string, unknown> & { readonly id: number; readonly documentId: string };

/** true for a document type with a string index (`ContentDocument`): its parameters stay untyped. */
export type IsUntyped<D> = string extends keyof D ? true : false;

/** Keys a generated type makes optional: relations, media, components, dynamic zones, `localizations`. */
type PopulatedKeys<D> = { [K in keyof D]: undefined extends D[K] ? K : never }[keyof D] & string;
/** Keys always answered: scalar attributes and the system fields (`id`, `documentId`, `createdAt`, ...). */
type ScalarKeys<D> = Exclude<keyof D, PopulatedKeys<D>> & string;
/** What a populated key holds: the related document, the media file, the component or the zone's items. */
type Target<V> = NonNullable<V> extends readonly (infer E)[] ? E : NonNullable<V>;
type ZoneKeys<D> = { [K in PopulatedKeys<D>]: Target<D[K]> extends { __component: string } ? K : never }[PopulatedKeys<D>];
/** Where filters and sorts may go: relations, media and components (not dynamic zones nor localizations). */
type NestedKeys<D> = Exclude<PopulatedKeys<D>, ZoneKeys<D> | 'localizations'>;

type List<T> = T | readonly T[];
type Flag = boolean | 'true' | 'false';
/** A sort direction, in either case (Strapi's `asc|desc|ASC|DESC`). */
export type SortOrder = 'asc' | 'desc' | 'ASC' | 'DESC';

/** The operand of a filter on a scalar of type V: numbers and booleans also as a query string gives them. */
type Operand<V> = [V] extends [boolean]
  ? V | 'true' | 'false'
  : [V] extends [number]
    ? number | string
    : [V] extends [string]
      ? string extends V
        ? string | Date
        : V // an enumeration: one of its values
      : string | number | boolean; // json, blocks

/** Strapi's operators on one scalar attribute. */
export interface ScalarFilter<T> {
  $eq?: List<T> | null;
  $ne?: List<T> | null;
  $lt?: T;
  $lte?: T;
  $gt?: T;
  $gte?: T;
  $in?: List<T>;
  $notIn?: List<T>;
  $between?: readonly [T, T];
  $null?: Flag;
  $notNull?: Flag;
  $eqi?: string;
  $nei?: string;
  $contains?: string;
  $notContains?: string;
  $containsi?: string;
  $notContainsi?: string;
  $startsWith?: string;
  $startsWithi?: string;
  $endsWith?: string;
  $endsWithi?: string;
  $not?: ScalarFilter<T>;
  $and?: readonly ScalarCondition<T>[];
  $or?: readonly ScalarCondition<T>[];
}
/** A condition on a scalar: a value (`$eq`), a list (`$in`), null (`$null`) or operators. */
export type ScalarCondition<T> = T | readonly T[] | null | ScalarFilter<T>;

/** Through a relation or media: conditions on the target's attributes, or on its row `id` (`{ $null: true }`). */
type NestedCondition<E> = E extends { documentId: string } ? TypedFilters<E> | ScalarCondition<number | string> : TypedFilters<E>;

type TypedFilters<D> = { [K in ScalarKeys<D>]?: ScalarCondition<Operand<NonNullable<D[K]>>> } & {
  [K in NestedKeys<D>]?: NestedCondition<Target<D[K]>>;
} & { $and?: readonly TypedFilters<D>[]; $or?: readonly TypedFilters<D>[]; $not?: TypedFilters<D> };

/** `filters` of a document type: its attributes (deep through relations and components), `$and`, `$or`, `$not`. */
export type DocumentFilters<D> = IsUntyped<D> extends true ? Record<string, unknown> : TypedFilters<D>;

/** `fields`: scalar attribute names (or `'*'`), one or a list; a comma list is a list in the typed form. */
export type DocumentFields<D> = IsUntyped<D> extends true ? string | readonly string[] : List<ScalarKeys<D> | '*'>;

type SortString<D> = ScalarKeys<D> | `${ScalarKeys<D>}:${SortOrder}` | `${NestedKeys<D>}.${string}`;
type SortObject<D> = { [K in ScalarKeys<D>]?: SortOrder } & { [K in NestedKeys<D>]?: SortObject<Target<D[K]>> };
/** `sort`: `'title'`, `'title:desc'`, `'author.name:asc'`, `{ title: 'desc' }`, `{ author: { name: 'asc' } }`, or a list. */
export type DocumentSort<D> = IsUntyped<D> extends true ? unknown : List<SortString<D> | SortObject<D>>;

type ComponentOptions<C> = { fields?: DocumentFields<C>; populate?: DocumentPopulate<C> };
type RelationOptions<T> = ComponentOptions<T> & {
  filters?: TypedFilters<T>;
  sort?: DocumentSort<T>;
  count?: Flag;
  /** Per parent entry (a to-many relation, media `multiple`, `localizations`): rows to skip, most rows to keep, the total in `meta`. */
  start?: number | string;
  limit?: number | string;
  withCount?: Flag;
};
/** A dynamic zone: `on` each component, or one `populate` for all of them (each takes the keys it has). */
type ZoneOptions<Z extends { __component: string }> =
  | { on?: { [N in Z['__component']]?: Flag | '*' | ComponentOptions<Omit<Extract<Z, { __component: N }>, '__component'>> } }
  | { populate?: Z extends unknown ? DocumentPopulate<Omit<Z, '__component'>> : never };
type PopulateOptions<E> = E extends { __component: string } ? ZoneOptions<E> : E extends { documentId: string } ? RelationOptions<E> : ComponentOptions<E>;
type PopulateObject<D> = { [K in PopulatedKeys<D>]?: Flag | '*' | null | PopulateOptions<Target<D[K]>> };
type PopulateString<D> = '*' | PopulatedKeys<D> | `${PopulatedKeys<D>}.${string}`;

/**
 * `populate`: `'*'`, a relation, media, component or dynamic zone (`'author'`, a dotted path `'seo.metaImage'`), a
 * list of them, or an object with each one's `fields`, `filters`, `sort`, `populate`, `count`, `start`, `limit`,
 * `withCount` (a zone: `on`).
 */
export type DocumentPopulate<D> = IsUntyped<D> extends true ? unknown : List<PopulateString<D> | PopulateObject<D>>;

/** Parameters of Strapi 5's Document Service reads (`findMany`, `findFirst`, `findOne`, `count`). */
export interface DocumentQueryParams<D = ContentDocument> {
  filters?: DocumentFilters<D>;
  fields?: DocumentFields<D>;
  populate?: DocumentPopulate<D>;
  sort?: DocumentSort<D>;
  pagination?: { page?: number; pageSize?: number; start?: number; limit?: number; withCount?: boolean; cursor?: string };
  /** Strapi's Document Service form of `pagination: { start, limit }` (or `page`/`pageSize`). */
  start?: number;
  limit?: number;
  page?: number;
  pageSize?: number;
  /** A configured locale, or `'*'` for every locale. */
  locale?: string;
  status?: 'draft' | 'published';
}

/** The `data` of the REST forms (`create(data, options)`, ...): anything when untyped, the input type otherwise. */
export type WriteData<D, I> = IsUntyped<D> extends true ? unknown : I;
