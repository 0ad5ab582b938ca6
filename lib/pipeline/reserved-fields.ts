/**
 * The field names the pipeline compiler reserves for itself: the ONE list of them. A compiled pipeline adds
 * temporary fields (a prefix and a counter, `__rf1`, `__s2`, `__sk2`, named by CompileContext.next) and removes them
 * with `$unset` before its `$project`; a list read's result adds `__total` and `__pos` (page-result). Every
 * reserved name starts with `__`, which no Strapi attribute name does.
 *
 * This module imports nothing: the memory engine (lib/engine/memory) imports it, and only it, from lib/pipeline
 * to recognise the stages the compiler emits (a relation sort's join and its `$unset`, a populate join inside
 * components), so that a renamed field is a type error there instead of a fast path silently left unused. The
 * eslint zone of engine/ allows this one file (eslint.config.js).
 *
 * @example
 * isTempField('__sk3')               // true
 * isTempField('__s3', TEMP.sortJoin) // true
 * sortKeyField('__s3')               // '__sk3'
 */

/** What every reserved name starts with. */
export const RESERVED_PREFIX = '__';

/** The prefixes of the compiler's temporary fields, each followed by a counter (CompileContext.next). */
export const TEMP = Object.freeze({
  /** A relation filter's `$lookup` (compile-filters): its joined rows, tested for emptiness. */
  relationFilter: '__rf',
  /** A relation or media populated inside components, fetched by one `$lookup` (compile-embedded-populate). */
  populate: '__p',
  /** The total of a `withCount` populate, by a `$count` `$lookup` of the same join (compile-populate-page). */
  populateTotal: '__pc',
  /** The position of a populated to-many target in the owner's array, to sort it in relation order (compile-populate). */
  relationOrder: '__o',
  /** The position of a target row on a to-many `mappedBy` side kept by a to-many owner (inverse-order-stages). */
  inverseOrder: '__io',
  /** A relation sort's `$lookup` of the target's keys (compile-sort). */
  sortJoin: '__s',
  /** A relation sort's key (`$min`/`$max` of the joined keys), same counter as its {@link TEMP.sortJoin}. */
  sortKey: '__sk',
  /** A biginteger sort key whose string order is numeric order (compile-sort, big-integer-order). */
  bigIntegerKey: '__bk',
  /** A join-count step's `$lookup` of one child (compile-join-count). */
  joinCount: '__j',
});

/** One of the {@link TEMP} prefixes. */
export type TempPrefix = (typeof TEMP)[keyof typeof TEMP];

/** The field of the one result document that carries the total of a list read (see compileFind). */
export const TOTAL_FIELD = '__total';
/** The field giving each page row its 1-based position in the page (see compileFind). */
export const POSITION_FIELD = '__pos';
/** The field giving each row of a cursor page the values of its sort keys, for the next cursor (see compileFind). */
export const CURSOR_FIELD = '__cur';

const PREFIXES: readonly string[] = Object.values(TEMP);

/** Whether `name` is a temporary field of the compiler (of the prefix `prefix` when given): prefix + digits. */
export function isTempField(name: string, prefix?: TempPrefix): boolean {
  if (prefix !== undefined) return name.startsWith(prefix) && isCounter(name.slice(prefix.length));
  return PREFIXES.some((p) => name.startsWith(p) && isCounter(name.slice(p.length)));
}

/** The sort key field that goes with the relation sort join `join` (`__s3` -> `__sk3`). */
export function sortKeyField(join: string): string {
  return `${TEMP.sortKey}${join.slice(TEMP.sortJoin.length)}`;
}

function isCounter(text: string): boolean {
  return /^[0-9]+$/.test(text);
}
