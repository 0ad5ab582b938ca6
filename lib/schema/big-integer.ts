/**
 * The stored form of a `biginteger` value: a canonical decimal string (no `+`, no leading zeros, `0` never
 * negative), so that equal numbers are equal strings and pipeline/big-integer-order can order them by length
 * and then by code units (docs/storage-model.md).
 *
 * @example
 * canonicalBigInteger(' +007 ') // '7'
 * canonicalBigInteger('-000') // '0'
 */
export function canonicalBigInteger(value: string | number): string {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value).toString() : String(value);
  const m = /^([-+]?)0*(\d+)$/.exec(value.trim());
  if (!m) return value;
  const digits = m[2]!;
  return m[1] === '-' && digits !== '0' ? `-${digits}` : digits;
}
