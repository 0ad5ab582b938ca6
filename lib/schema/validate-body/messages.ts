import { printValue } from './print-value';

/** yup's schema type names, as they appear in "must be a `<type>` type". */
export type YupType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'mixed';

/**
 * yup's `notType` message. `original` is the value before casting (only numbers are cast here): when it
 * differs, yup adds "(cast from the value ...)".
 */
export function notTypeMessage(path: string, type: YupType, value: unknown, original: unknown = value): string {
  const isCast = original !== null && original !== undefined && !Object.is(original, value);
  const castPart = isCast ? ` (cast from the value \`${printValue(original, true)}\`).` : '.';
  if (type === 'mixed') {
    return `${path} must match the configured type. The validated value was: \`${printValue(value, true)}\`${castPart}`;
  }
  return `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value, true)}\`${castPart}`;
}

/** The yup messages Strapi's entity validator produces, keyed by the test that failed. */
export const yupMessages = {
  required: (path: string) => `${path} is a required field`,
  oneOf: (path: string, values: string) => `${path} must be one of the following values: ${values}`,
  minLength: (path: string, min: number) => `${path} must be at least ${min} characters`,
  maxLength: (path: string, max: number) => `${path} must be at most ${max} characters`,
  matches: (path: string, regex: string) => `${path} must match the following: "${regex}"`,
  email: (path: string) => `${path} must be a valid email`,
  notEmpty: (path: string) => `${path} cannot be empty`,
  integer: (path: string) => `${path} must be an integer`,
  min: (path: string, min: number) => `${path} must be greater than or equal to ${min}`,
  max: (path: string, max: number) => `${path} must be less than or equal to ${max}`,
  minItems: (path: string, min: number) => `${path} field must have at least ${min} items`,
  maxItems: (path: string, max: number) => `${path} field must have less than or equal to ${max} items`,
};

/** yup's path notation: `seo.socials[0].network`; `this` for the root. */
export function yupPath(segments: readonly string[]): string {
  let out = '';
  for (const s of segments) {
    if (/^\d+$/.test(s)) out += `[${s}]`;
    else out += out === '' ? s : `.${s}`;
  }
  return out === '' ? 'this' : out;
}
