import type { ScalarAttribute } from '../schema';
import { canonicalBigInteger } from '../schema/big-integer';

/** The outcome of casting one query-string value to an attribute's stored type. */
export type CastResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const INTEGER = /^[-+]?\d+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_PREFIX = /^\d{4}-\d{2}-\d{2}/;
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;
const TRUE = new Set(['true', '1', 't']);
const FALSE = new Set(['false', '0', 'f']);

const ok = (value: unknown): CastResult => ({ ok: true, value });
const fail = (reason: string): CastResult => ({ ok: false, reason });

/** Reads a boolean the way Strapi does: 'true'/'t'/'1' and 'false'/'f'/'0' (and real booleans). */
export function parseBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  return TRUE.has(v) ? true : FALSE.has(v) ? false : undefined;
}

function castNumber(text: string, integer: boolean): CastResult {
  const t = text.trim();
  if (!NUMBER.test(t)) return fail('expected a number');
  const n = Number(t);
  if (!Number.isFinite(n)) return fail('expected a number');
  if (integer && INTEGER.test(t) && !Number.isSafeInteger(n)) return fail('integer out of range');
  return ok(n);
}

function castDate(text: string): CastResult {
  const m = DATE.exec(text.trim());
  if (m) {
    const d = new Date(`${m[0]}T00:00:00.000Z`);
    if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== m[0]) return fail('expected a date (YYYY-MM-DD)');
    return ok(m[0]);
  }
  const dt = castDateTime(text);
  return dt.ok ? ok(String(dt.value).slice(0, 10)) : fail('expected a date (YYYY-MM-DD)');
}

function castDateTime(text: string): CastResult {
  const t = text.trim();
  if (!DATE_PREFIX.test(t)) return fail('expected an ISO date-time');
  // No zone given: UTC (never the server's local time zone).
  const d = new Date(LOCAL_DATE_TIME.test(t) ? `${t.replace(' ', 'T')}Z` : t);
  if (Number.isNaN(d.getTime())) return fail('expected an ISO date-time');
  // Stored date-times are ISO strings of years 0000-9999, whose code-unit order is time order; an operand out
  // of that range (an offset past 9999-12-31) would compare as a string out of order ('+010000-...').
  const iso = d.toISOString();
  return /^\d{4}-/.test(iso) ? ok(iso) : fail('expected an ISO date-time with a year from 0000 to 9999');
}

function castTime(text: string): CastResult {
  const m = TIME.exec(text.trim());
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) return fail('expected a time (HH:mm:ss.SSS)');
  return ok(`${m[1]}:${m[2]}:${m[3] ?? '00'}.${(m[4] ?? '').padEnd(3, '0')}`);
}

/**
 * Casts one scalar value (a string from the query string, or a number/boolean) to the stored type of
 * `attribute`: numbers for integer/float/decimal, booleans, `YYYY-MM-DD` dates, ISO date-times,
 * `HH:mm:ss.SSS` times, decimal strings for biginteger; everything else stays a string (json and blocks
 * attributes are filtered as text). Objects and arrays are never scalars.
 */
export function castValue(attribute: ScalarAttribute, value: unknown): CastResult {
  if (typeof value === 'boolean' || typeof value === 'number') {
    if (attribute.type === 'boolean') return typeof value === 'boolean' ? ok(value) : castBoolean(String(value));
    if (typeof value === 'number' && !Number.isFinite(value)) return fail('expected a finite number');
    return castValue(attribute, String(value));
  }
  if (typeof value !== 'string') return fail('expected a scalar value');
  switch (attribute.type) {
    case 'integer':
      return castNumber(value, true);
    case 'float':
    case 'decimal':
      return castNumber(value, false);
    case 'biginteger':
      return INTEGER.test(value.trim()) ? ok(canonicalBigInteger(value)) : fail('expected an integer');
    case 'boolean':
      return castBoolean(value);
    case 'date':
      return castDate(value);
    case 'datetime':
    case 'timestamp':
      return castDateTime(value);
    case 'time':
      return castTime(value);
    default:
      return ok(value);
  }
}

function castBoolean(text: string): CastResult {
  const b = parseBoolean(text);
  return b === undefined ? fail('expected a boolean') : ok(b);
}
