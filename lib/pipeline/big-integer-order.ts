import type { Filter } from '../engine/types';

/**
 * Numeric order on `biginteger` values, which are stored as canonical decimal strings (lib/schema/big-integer):
 * MongoDB compares strings by code units (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/),
 * so `"9" > "10"` and `"-2" < "-10"` as strings. Between canonical strings, numeric order is: negatives before
 * non-negatives; among non-negatives, fewer digits first, then code units; among negatives, more digits first,
 * then code units reversed. Range filters are built from that (anchored `$regex` on the length and sign, plus a
 * string comparison at the operand's length); sorts use {@link bigIntegerSortKey}.
 */
type Range = '$lt' | '$lte' | '$gt' | '$gte';

const re = (pattern: string): Filter => ({ $regex: pattern });
const digits = (from: number, to?: number): string => (to === undefined ? `\\d{${from},}` : from === to ? `\\d{${from}}` : `\\d{${from},${to}}`);
const FLIP: Record<Range, Range> = { $lt: '$gt', $lte: '$gte', $gt: '$lt', $gte: '$lte' };

/**
 * The condition `path <op> value` in numeric order, `value` a canonical decimal string.
 *
 * @example
 * bigIntegerRange('views', '$lt', '123')
 * // { $or: [{ views: { $regex: '^-' } }, { views: { $regex: '^\\d{1,2}$' } }, { views: { $regex: '^\\d{3}$', $lt: '123' } }] }
 */
export function bigIntegerRange(path: string, op: Range, value: string): Filter {
  const negative = value.startsWith('-');
  const d = negative ? value.length - 1 : value.length;
  const below = op === '$lt' || op === '$lte';
  const parts: Filter[] = [];
  if (!negative) {
    if (below) parts.push(re('^-'), ...(d > 1 ? [re(`^${digits(1, d - 1)}$`)] : []));
    else parts.push(re(`^${digits(d + 1)}$`));
    parts.push({ ...re(`^${digits(d, d)}$`), [op]: value });
  } else {
    if (below) parts.push(re(`^-${digits(d + 1)}$`));
    else parts.push(re('^\\d'), ...(d > 1 ? [re(`^-${digits(1, d - 1)}$`)] : []));
    // Same length, both negative: the larger magnitude is the smaller number, and the larger string.
    parts.push({ ...re(`^-${digits(d, d)}$`), [FLIP[op]]: value });
  }
  return { $or: parts.map((condition) => ({ [path]: condition })) };
}

const ZEROS = '0'.repeat(20);

/** `{ $substrCP: [s, from, length] }` and friends, to keep the key expression readable. */
const substr = (s: unknown, from: unknown, length: unknown): unknown => ({ $substrCP: [s, from, length] });
const len = (s: unknown): unknown => ({ $strLenCP: s });

/** `9 - d` for every digit of the string `s` (the nines' complement): reverses code-unit order at fixed length. */
function ninesComplement(s: string): unknown {
  const digit = { $indexOfBytes: ['0123456789', substr(s, '$$this', 1)] };
  return { $reduce: { input: { $range: [0, len(s)] }, initialValue: '', in: { $concat: ['$$value', substr('9876543210', digit, 1)] } } };
}

/** The sortable string of the canonical decimal string `s`: '1' + 20 digits, or '0' + their nines' complement. */
function encoded(s: string): unknown {
  const padded = { $concat: [substr(ZEROS, 0, { $max: [0, { $subtract: [20, len('$$digits')] }] }), '$$digits'] };
  return {
    $let: {
      vars: { neg: { $eq: [substr(s, 0, 1), '-'] } },
      in: {
        $let: {
          vars: { digits: { $cond: ['$$neg', substr(s, 1, { $subtract: [len(s), 1] }), s] } },
          in: { $let: { vars: { padded }, in: { $cond: ['$$neg', { $concat: ['0', ninesComplement('$$padded')] }, { $concat: ['1', '$$padded'] }] } } },
        },
      },
    },
  };
}

/** A string is encoded; anything else (null, a number written by another tool) is kept for `$sort` to order. */
const encodedOrKept = (v: string): unknown => ({ $cond: [{ $eq: [{ $type: v }, 'string'] }, encoded(v), v] });

/**
 * An expression whose `$sort` order is the numeric order of the biginteger field at `path` (values of a
 * repeatable component: each one encoded, `$sort` then takes the smallest or largest). Put into a temp field
 * with `$addFields` before the `$sort`.
 *
 * @example
 * { $addFields: { __bk1: bigIntegerSortKey('views') } } // then { $sort: { __bk1: 1, id: 1 } }
 */
export function bigIntegerSortKey(path: string): unknown {
  return {
    $let: {
      vars: { v: `$${path}` },
      in: { $cond: [{ $isArray: '$$v' }, { $map: { input: '$$v', as: 'e', in: encodedOrKept('$$e') } }, encodedOrKept('$$v')] },
    },
  };
}
