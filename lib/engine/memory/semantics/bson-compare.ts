/**
 * MongoDB's comparison of two values in aggregation expressions, on the values the memory engine stores (JSON
 * plus Date, RegExp and binary). The order of types is the manual's "Comparison/Sort Order"
 * (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/): MinKey, Null, Numbers, Symbol and
 * String, Object, Array, BinData, ObjectId, Boolean, Date, Timestamp, Regular Expression, MaxKey. A missing
 * field (`undefined`) ranks below null: the aggregation comparison operators compare "both value and type"
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/eq/), so `{ $eq: ['$missing', null] }` is
 * false, unlike the query `$eq`.
 *
 * Unlike the query operators, an array is one value: it is compared with another array element by element (a
 * shorter prefix first), never by its elements against a scalar; an object is compared pair by pair in field
 * order (type of the value, then the field name, then the value), and the one with more fields is greater.
 * Strings compare by their UTF-8 bytes (the manual's "simple binary comparison"), that is by code points.
 */

const RANK_MISSING = 0;
const RANK_NULL = 1;
const RANK_NUMBER = 2;
const RANK_STRING = 3;
const RANK_OBJECT = 4;
const RANK_ARRAY = 5;
const RANK_BINARY = 6;
const RANK_BOOLEAN = 8;
const RANK_DATE = 9;
const RANK_REGEX = 11;

/** The position of a value's type in the BSON comparison order. */
export function bsonTypeRank(value: unknown): number {
  if (value === undefined) return RANK_MISSING;
  if (value === null) return RANK_NULL;
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return RANK_NUMBER;
    case 'string':
      return RANK_STRING;
    case 'boolean':
      return RANK_BOOLEAN;
    default:
  }
  if (Array.isArray(value)) return RANK_ARRAY;
  if (value instanceof Date) return RANK_DATE;
  if (value instanceof RegExp) return RANK_REGEX;
  if (value instanceof Uint8Array) return RANK_BINARY;
  return RANK_OBJECT;
}

/**
 * -1, 0 or 1 as MongoDB orders `a` and `b` in an aggregation expression (`$cmp`, `$eq`, `$lt`...).
 *
 * @example
 * compareBson(['a1'], 'a1') // 1: an array is above every string
 * compareBson(null, 0)      // -1
 */
export function compareBson(a: unknown, b: unknown): -1 | 0 | 1 {
  const ra = bsonTypeRank(a);
  const rb = bsonTypeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case RANK_NUMBER:
      return compareNumbers(a as number | bigint, b as number | bigint);
    case RANK_STRING:
      return compareCodePoints(a as string, b as string);
    case RANK_BOOLEAN:
      return sign(Number(a) - Number(b));
    case RANK_DATE:
      return compareNumbers((a as Date).getTime(), (b as Date).getTime());
    case RANK_ARRAY:
      return compareArrays(a as unknown[], b as unknown[]);
    case RANK_OBJECT:
      return compareObjects(a as Record<string, unknown>, b as Record<string, unknown>);
    case RANK_BINARY:
      return compareBinary(a as Uint8Array, b as Uint8Array);
    case RANK_REGEX:
      return compareCodePoints(String(a), String(b));
    default:
      return 0; // missing and null: one value each
  }
}

/** Numbers by value; NaN equals NaN and is below every other number, as in MongoDB. */
function compareNumbers(a: number | bigint, b: number | bigint): -1 | 0 | 1 {
  const nanA = typeof a === 'number' && Number.isNaN(a);
  const nanB = typeof b === 'number' && Number.isNaN(b);
  if (nanA || nanB) return nanA && nanB ? 0 : nanA ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Code point order (the order of the UTF-8 bytes). UTF-16 code units give the same order except between a
 * surrogate (U+D800-U+DFFF, above U+FFFF once paired) and U+E000-U+FFFF: those two ranges are swapped.
 */
function compareCodePoints(a: string, b: string): -1 | 0 | 1 {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return sign(codePointWeight(x) - codePointWeight(y));
  }
  return sign(a.length - b.length);
}

function codePointWeight(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

function compareArrays(a: readonly unknown[], b: readonly unknown[]): -1 | 0 | 1 {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareBson(a[i], b[i]);
    if (c !== 0) return c;
  }
  return sign(a.length - b.length);
}

function compareObjects(a: Record<string, unknown>, b: Record<string, unknown>): -1 | 0 | 1 {
  const ka = Object.keys(a).filter((k) => a[k] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k] !== undefined);
  const n = Math.min(ka.length, kb.length);
  for (let i = 0; i < n; i++) {
    const va = a[ka[i]!];
    const vb = b[kb[i]!];
    const byType = sign(bsonTypeRank(va) - bsonTypeRank(vb));
    if (byType !== 0) return byType;
    const byName = compareCodePoints(ka[i]!, kb[i]!);
    if (byName !== 0) return byName;
    const byValue = compareBson(va, vb);
    if (byValue !== 0) return byValue;
  }
  return sign(ka.length - kb.length);
}

/** BinData: shorter first, then byte by byte. */
function compareBinary(a: Uint8Array, b: Uint8Array): -1 | 0 | 1 {
  if (a.length !== b.length) return sign(a.length - b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return sign(a[i]! - b[i]!);
  return 0;
}

function sign(n: number): -1 | 0 | 1 {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}
