import { ValidationError } from '../../errors';

const PARTIAL_DATE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])/;
const TIME = /^(2[0-3]|[01][0-9]):([0-5][0-9])(?::([0-5][0-9])(?:\.([0-9]{1,3}))?)?$/;
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

const isValidDate = (value: unknown): value is Date => value instanceof Date && !Number.isNaN(value.getTime());

function validDay(year: number, month: number, day: number): boolean {
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/**
 * Dates and date-times are stored as ISO strings, compared and sorted as strings (by code units on MongoDB,
 * https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/): that is time order only for
 * four-digit years. `toISOString` writes other years as `+010000` / `-000001`, so they are refused.
 */
function checkYear(date: Date): void {
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) throw new ValidationError('Invalid date: the year must be from 0000 to 9999', {});
}

/**
 * A `date` value to its stored form `YYYY-MM-DD`. Like Strapi, a string that starts with a date keeps that
 * date; anything else is `400 Invalid format, expected yyyy-MM-dd` (details `{}`).
 */
export function parseDate(value: unknown): string {
  if (isValidDate(value)) {
    checkYear(value);
    return value.toISOString().slice(0, 10);
  }
  const found = typeof value === 'string' ? PARTIAL_DATE.exec(value) : null;
  if (!found) throw new ValidationError('Invalid format, expected yyyy-MM-dd', {});
  if (!validDay(Number(found[1]), Number(found[2]), Number(found[3]))) throw new ValidationError('Invalid date', {});
  return found[0];
}

/** A `time` value (`HH:mm`, `HH:mm:ss` or `HH:mm:ss.SSS`) to its stored form `HH:mm:ss.SSS`. */
export function parseTime(value: unknown): string {
  if (isValidDate(value)) return value.toISOString().slice(11, 23);
  if (typeof value !== 'string') throw new ValidationError(`Expected a string, got a ${typeof value}`, {});
  const m = TIME.exec(value);
  if (!m) throw new ValidationError('Invalid time format, expected HH:mm:ss.SSS', {});
  return `${m[1]}:${m[2]}:${m[3] ?? '00'}.${(m[4] ?? '').padEnd(3, '0')}`;
}

/**
 * A `datetime`/`timestamp` value to an ISO string: an ISO 8601 date or date-time (with or without offset),
 * or a number of milliseconds since the epoch (number or digit string), or a Date (host app calls).
 */
export function parseDateTime(value: unknown): string {
  const fail = (): never => {
    throw new ValidationError('Invalid format, expected a timestamp or an ISO date', {});
  };
  let date: Date;
  if (value instanceof Date) {
    date = value;
  } else if (typeof value === 'number' || (typeof value === 'string' && /^-?\d{1,15}$/.test(value) && value.length !== 4)) {
    date = new Date(Number(value));
  } else if (typeof value === 'string') {
    const m = ISO_DATE_TIME.exec(value);
    if (!m || !validDay(Number(m[1]), Number(m[2]), Number(m[3]))) return fail();
    if (Number(m[4] ?? 0) > 23 || Number(m[5] ?? 0) > 59 || Number(m[6] ?? 0) > 59) return fail();
    const normalized = value.replace(' ', 'T').replace(',', '.');
    date = new Date(m[4] === undefined && m[8] === undefined ? `${normalized}T00:00:00Z` : normalized);
  } else {
    return fail();
  }
  if (Number.isNaN(date.getTime())) return fail();
  checkYear(date);
  return date.toISOString();
}
