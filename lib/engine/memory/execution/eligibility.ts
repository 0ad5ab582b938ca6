/**
 * The eligibility checks the fast paths share: what a stage, an operand or a value must look like before a fast
 * path may take it with exactly the general path's answer. One definition each; a fast path that needs a check
 * imports it from here rather than writing its own.
 */

/** Keys mingo's `getValue` treats specially (Object.prototype members); never fast-pathed. */
const PROTO_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** True for a plain (non-array) object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The value of `stage` when `key` is its only key, else undefined.
 *
 * @example
 * onlyKey({ $match: { a: 1 } }, '$match') // { a: 1 }
 * onlyKey({ $match: {}, $sort: {} }, '$match') // undefined
 */
export function onlyKey(stage: unknown, key: string): unknown {
  if (!isObject(stage)) return undefined;
  const keys = Object.keys(stage);
  return keys.length === 1 && keys[0] === key ? stage[key] : undefined;
}

/** A top-level field name mingo resolves as a plain own property (no `$`, no `.`, no Object.prototype member). */
export function isPlainField(key: string): boolean {
  return key.length > 0 && !key.startsWith('$') && !key.includes('.') && !PROTO_KEYS.has(key);
}

/** The field of `'$<top-level field>'`, else null. */
export function fieldRef(value: unknown): string | null {
  return typeof value === 'string' && /^\$[^$.][^.]*$/.test(value) && isPlainField(value.slice(1)) ? value.slice(1) : null;
}

/**
 * Strings, and finite numbers other than -0: values that `===` compares exactly as MongoDB's aggregation `$eq`
 * does (same type, same value), and as mingo does.
 */
export function comparable(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0));
}

/**
 * A row `id` the fast paths order by with `-`/`<` (relation order, `$sort: { id: 1 }`): a finite number other than
 * -0 (the compiler's ids; any other value is ordered by the general path, in the BSON order).
 */
export function isNumericId(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0);
}

/**
 * True for a `$match` filter that reads no variable and holds no `$expr`, `$where` or `$function`: its answer
 * for a row depends on that row alone, so a row test compiled once (match-rows' compileRowTest) gives it.
 */
export function isRowFilter(filter: Record<string, unknown>): boolean {
  const text = JSON.stringify(filter);
  return !(text.includes('$$') || text.includes('"$expr"') || text.includes('"$where"') || text.includes('"$function"'));
}

/** A `$limit` MongoDB accepts: a positive integer. */
export function isLimit(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/** A `$skip` MongoDB accepts (and a count): a non-negative integer. */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** The field name of a `$count` stage MongoDB accepts (non-empty, no leading `$`, no `.`), else null. */
export function countName(stage: unknown): string | null {
  const name = onlyKey(stage, '$count');
  return typeof name === 'string' && /^[^$.][^.]*$/.test(name) && name.trim().length > 0 ? name : null;
}

/** `{ $eq | $ne: ['$<field>', '$$<variable>'] }` (either order), the field a top-level one. */
export interface FieldVariableTest {
  readonly field: string;
  readonly variable: string;
  /** `$eq` (true) or `$ne` (false). */
  readonly eq: boolean;
}

/**
 * Reads an `$expr` body of the shape {@link FieldVariableTest}, else null.
 *
 * @example
 * fieldVariableTest({ $eq: ['$locale', '$$locale'] }) // { field: 'locale', variable: 'locale', eq: true }
 */
export function fieldVariableTest(expr: unknown): FieldVariableTest | null {
  if (!isObject(expr) || Object.keys(expr).length !== 1) return null;
  const op = Object.keys(expr)[0]!;
  const args = expr[op];
  if ((op !== '$eq' && op !== '$ne') || !Array.isArray(args) || args.length !== 2) return null;
  const fieldAt = args.findIndex((a: unknown) => fieldRef(a) !== null);
  const other: unknown = args[1 - fieldAt];
  if (fieldAt < 0 || typeof other !== 'string' || !/^\$\$[a-z][^.]*$/.test(other)) return null;
  return { field: fieldRef(args[fieldAt])!, variable: other.slice(2), eq: op === '$eq' };
}

/**
 * The rows a {@link FieldVariableTest} keeps for the variable's `value` (`eq`: `$eq`, else `$ne`), in order, or null
 * when the value or a row's field is not {@link comparable} (the general path decides then). fast-paths/variable-match
 * and the batched join of fast-paths/batched-lookup test with it.
 *
 * @example
 * rowsEqualTo([{ locale: 'en' }, { locale: 'fr' }], 'locale', 'en', true) // [{ locale: 'en' }]
 */
export function rowsEqualTo<R extends Record<string, unknown>>(rows: readonly R[], field: string, value: unknown, eq: boolean): R[] | null {
  if (!comparable(value)) return null;
  const out: R[] = [];
  for (const row of rows) {
    const stored = Object.hasOwn(row, field) ? row[field] : undefined;
    if (!comparable(stored)) return null;
    if ((typeof stored === typeof value && stored === value) === eq) out.push(row);
  }
  return out;
}

/** A `let` entry that reads one top-level field: `'$<field>'`, or `{ $ifNull: ['$<field>', []] }` (`orEmpty`). */
export interface LetRef {
  readonly field: string;
  readonly orEmpty: boolean;
}

/** The {@link LetRef} of a `let` value, else null (an expression that needs mingo). */
export function letRef(value: unknown): LetRef | null {
  const ifNull = isObject(value) && Object.keys(value).length === 1 && Array.isArray(value.$ifNull) ? (value.$ifNull as unknown[]) : null;
  const ref = ifNull && ifNull.length === 2 && Array.isArray(ifNull[1]) && ifNull[1].length === 0 ? ifNull[0] : value;
  if (typeof ref !== 'string' || !ref.startsWith('$') || !isPlainField(ref.slice(1))) return null;
  return { field: ref.slice(1), orEmpty: ifNull !== null };
}
