import { fieldValidationError, ValidationError, type FieldError } from '../errors';
import { printValue } from '../schema/validate-body';

/** yup's email test (yup 1.x, the WHATWG regex), as the plugin's `yup.string().email()`. */
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** What one field of a body must be, in the plugin's yup schemas (server/controllers/validation/*.js). */
export interface StringRule {
  required?: boolean;
  email?: boolean;
  min?: number;
  /** At most this many characters (yup's `max`): what may be stored or looked up is bounded before use. */
  max?: number;
  /** At most this many UTF-8 bytes (bcrypt reads 72). */
  maxBytes?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body as an object (a JSON array or scalar body counts as `{}`, whose required fields are then missing). */
export function bodyObject(body: unknown): Record<string, unknown> {
  return isObject(body) ? body : {};
}

/** yup's string cast: numbers and booleans become strings; objects and arrays stay what they are (a type error). */
function castString(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return value;
}

/** The error of one string field, with yup's message, or undefined; `value` is the cast value. */
function checkString(path: string, given: unknown, rule: StringRule): FieldError | undefined {
  const value = castString(given);
  const error = (message: string, withValue = true): FieldError => ({ path: [path], message, name: 'ValidationError', value: withValue ? value : undefined }) as FieldError;
  if (value !== undefined && value !== null && typeof value !== 'string') {
    const cast = given !== value ? ` (cast from the value \`${printValue(given, true)}\`).` : '.';
    return error(`${path} must be a \`string\` type, but the final value was: \`${printValue(value, true)}\`${cast}`);
  }
  if (value === undefined || value === null || value === '') {
    return rule.required ? error(`${path} is a required field`, false) : undefined;
  }
  const s = value as string;
  // Before the e-mail test: a 500 KB "address" is refused without running a regular expression over it.
  if (rule.max !== undefined && s.length > rule.max) return error(`${path} must be at most ${rule.max} characters`, false);
  if (rule.email && !EMAIL.test(s)) return error(`${path} must be a valid email`);
  if (rule.min !== undefined && s.length < rule.min) return error(`${path} must be at least ${rule.min} characters`);
  if (rule.maxBytes !== undefined && Buffer.byteLength(s, 'utf8') > rule.maxBytes) {
    return error(`Password must be less than ${rule.maxBytes + 1} bytes`);
  }
  return undefined;
}

/**
 * Validates the string fields of a body against yup-like rules, all errors collected in the schema's order, and
 * answers Strapi's ValidationError (`"<field> is a required field"`, `"2 errors occurred"`, `details.errors[]`).
 * Returns the fields as strings (numbers cast, as yup casts them).
 *
 * @example
 * const { identifier, password } = validateStrings(body, { identifier: { required: true }, password: { required: true } });
 */
export function validateStrings<K extends string>(body: unknown, rules: Record<K, StringRule>): Record<K, string | undefined> {
  const data = bodyObject(body);
  const errors: FieldError[] = [];
  const out = {} as Record<K, string | undefined>;
  for (const key of Object.keys(rules) as K[]) {
    const error = checkString(key, data[key], rules[key]);
    if (error) {
      if (error.value === undefined) delete (error as { value?: unknown }).value;
      errors.push(error);
    } else {
      const v = castString(data[key]);
      out[key] = typeof v === 'string' && v !== '' ? v : undefined;
    }
  }
  if (errors.length > 0) throw fieldValidationError(errors);
  return out;
}

/** yup's `noUnknown()`: keys of the body that the schema does not name, as the object's own error. */
export function assertNoUnknownKeys(body: unknown, known: readonly string[]): void {
  const data = bodyObject(body);
  const unknown = Object.keys(data).filter((k) => !known.includes(k));
  if (unknown.length === 0) return;
  const message = `this field has unspecified keys: ${unknown.join(', ')}`;
  throw fieldValidationError([{ path: [], message, name: 'ValidationError', value: data }]);
}

/** `Passwords do not match`, on `passwordConfirmation` with its value (Strapi's `oneOf([ref('password')])`). */
export function passwordsDoNotMatch(value: string): ValidationError {
  return fieldValidationError([{ path: ['passwordConfirmation'], message: 'Passwords do not match', name: 'ValidationError', value }]);
}
