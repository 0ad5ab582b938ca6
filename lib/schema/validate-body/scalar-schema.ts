import type { ScalarAttribute } from '../types';
import { ANNOTATION, type Annotation, type JsonSchema, type Variant } from './annotation';
import type { YupType } from './messages';

/** yup's email regex (yup 1.x, the WHATWG one). */
const EMAIL = "[a-zA-Z0-9.!#$%&'*+\\/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*";
const UID_REGEX = '^[A-Za-z0-9-_.~]*$';
const STRING_TYPES = new Set(['string', 'text', 'richtext', 'password', 'email', 'uid']);
const NUMBER_TYPES = new Set(['integer', 'float', 'decimal']);

const annotate = (schema: JsonSchema, a: Annotation): JsonSchema => ({ ...schema, [ANNOTATION]: a });
const typeOf = (type: string, nullable: boolean): string | string[] => (nullable ? [type, 'null'] : type);
const isInt = (n: number | undefined): n is number => n !== undefined && Number.isInteger(n);

/** A pattern sub-schema; `allowEmpty` mirrors yup's `excludeEmptyString`. */
function pattern(source: string, allowEmpty: boolean, a: Annotation): JsonSchema {
  return annotate({ pattern: allowEmpty ? `^$|(?:${source})` : source }, a);
}

function stringSchema(attr: ScalarAttribute, v: Variant, nullable: boolean): JsonSchema {
  const s: JsonSchema = { type: typeOf('string', nullable) };
  const allOf: JsonSchema[] = [];
  if (isInt(attr.minLength) && attr.minLength > 0 && !v.draft) s.minLength = attr.minLength;
  if (isInt(attr.maxLength) && attr.maxLength > 0) s.maxLength = attr.maxLength;
  if (attr.regex !== undefined && !v.draft) {
    allOf.push(pattern(attr.regex, !attr.required, { kind: 'regex', text: new RegExp(attr.regex).toString() }));
  }
  if (attr.type === 'email' && !v.draft) {
    allOf.push(pattern(`^${EMAIL}$`, true, { kind: 'email' }));
    allOf.push(annotate({ minLength: 1 }, { kind: 'notEmpty' }));
  }
  if (attr.type === 'uid' && !v.draft) allOf.push(pattern(UID_REGEX, false, { kind: 'regex', text: `/${UID_REGEX}/` }));
  if (allOf.length > 0) s.allOf = allOf;
  return annotate(s, { type: 'string' });
}

function numberSchema(attr: ScalarAttribute, v: Variant, nullable: boolean): JsonSchema {
  const integer = attr.type === 'integer';
  const s: JsonSchema = { type: typeOf('number', nullable) };
  if (integer) s.multipleOf = 1;
  const bound = (n: number): number => (integer ? Math.trunc(n) : n);
  if (attr.min !== undefined && !v.draft) s.minimum = bound(attr.min);
  if (attr.max !== undefined) s.maximum = bound(attr.max);
  return annotate(s, { type: 'number' });
}

function mixedSchema(nullable: boolean): JsonSchema {
  return annotate(nullable ? {} : { not: { type: 'null' } }, { type: 'mixed' });
}

/**
 * The JSON Schema of one scalar attribute for a variant, mirroring Strapi's yup validators: required is
 * enforced outside drafts (create: missing or null; update: null), minimums and formats are skipped in
 * drafts, maximums always apply. Values reach ajv already cast the way yup casts them (cast-values.ts).
 */
export function scalarSchema(attr: ScalarAttribute, v: Variant): JsonSchema {
  const nullable = !(attr.required && !v.draft);
  let s: JsonSchema;
  if (STRING_TYPES.has(attr.type)) s = stringSchema(attr, v, nullable);
  else if (NUMBER_TYPES.has(attr.type)) s = numberSchema(attr, v, nullable);
  else if (attr.type === 'boolean') s = annotate({ type: typeOf('boolean', nullable) }, { type: 'boolean' });
  else if (attr.type === 'enumeration') {
    const values = [...(attr.enum ?? []), null];
    s = annotate({ type: typeOf('string', nullable), enum: values }, { type: 'string', kind: 'oneOf', text: values.map((x) => x ?? '').join(', ') });
  } else if (attr.type === 'biginteger') {
    const t: YupType = 'mixed';
    s = annotate({ type: nullable ? ['string', 'integer', 'null'] : ['string', 'integer'], pattern: '^-?\\d{1,20}$' }, { type: t, kind: 'biginteger' });
  } else if (attr.type === 'blocks') {
    s = annotate({ type: typeOf('array', nullable), items: annotate({ type: 'object' }, { type: 'object' }) }, { type: 'array' });
  } else s = mixedSchema(nullable); // json, date, time, datetime, timestamp: checked when converted
  if (v.action === 'create' && attr.default !== undefined) s.default = attr.default;
  return s;
}
