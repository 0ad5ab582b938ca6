import { canonicalBigInteger } from '../../schema/big-integer';
import type { ScalarAttribute } from '../../schema';
import { parseDate, parseDateTime, parseTime } from '../../schema/validate-body/parse-temporal';

const STRING_TYPES: ReadonlySet<string> = new Set(['string', 'text', 'richtext', 'email', 'password', 'uid', 'enumeration']);

/** A value as an export carries it, for a problem's message. */
const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** The number of a decimal or float column: SQL drivers may hand decimals over as strings (`"0.70"`). */
function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(value.trim())) return Number(value);
  return undefined;
}

/**
 * A scalar value of an exported entity in its stored form (docs/storage-model.md): dates, times and big integers
 * normalised as the API stores them, numbers and booleans as the SQL drivers may give them (`"0.70"`, `1`).
 * Throws a message (no entity: the caller adds it) when the value cannot be of the attribute's type.
 *
 * @example
 * toStoredScalar(dateAttribute, '2024-01-14') // '2024-01-14'
 */
export function toStoredScalar(attribute: ScalarAttribute, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const fail = (expected: string): never => {
    throw new Error(`${show(value)} is not ${expected}`);
  };
  const { type } = attribute;
  if (STRING_TYPES.has(type)) {
    if (typeof value !== 'string') return fail('a string');
    if (type === 'enumeration' && attribute.enum && !attribute.enum.includes(value)) return fail(`one of ${attribute.enum.join(', ')}`);
    return value;
  }
  switch (type) {
    case 'integer':
      return Number.isSafeInteger(toNumber(value)) ? toNumber(value) : fail('an integer');
    case 'float':
    case 'decimal':
      return toNumber(value) ?? fail('a number');
    case 'biginteger': {
      const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
      return typeof text === 'string' && /^\s*[-+]?\d{1,20}\s*$/.test(text) ? canonicalBigInteger(text) : fail('an integer');
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      return value === 0 || value === 1 ? value === 1 : fail('a boolean');
    case 'date':
    case 'time':
    case 'datetime':
    case 'timestamp':
      try {
        return type === 'date' ? parseDate(value) : type === 'time' ? parseTime(value) : parseDateTime(value);
      } catch (error) {
        return fail(`a ${type} (${(error as Error).message})`);
      }
    case 'blocks':
      return Array.isArray(value) ? value : fail('blocks (an array)');
    default:
      return value; // json: any JSON value
  }
}
