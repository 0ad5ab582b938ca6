import type { ErrorObject } from 'ajv';
import type { FieldError } from '../../errors';
import { ANNOTATION, type Annotation } from './annotation';
import type { FailedCasts } from './cast-values';
import { notTypeMessage, yupMessages as m, yupPath } from './messages';

const annotationOf = (schema: unknown): Annotation =>
  ((schema as Record<string, unknown> | undefined)?.[ANNOTATION] as Annotation | undefined) ?? {};

const segmentsOf = (pointer: string): string[] =>
  pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

function mapRequired(e: ErrorObject, segments: string[]): FieldError {
  const missing = String((e.params as { missingProperty?: string }).missingProperty);
  const path = [...segments, missing];
  if (missing === '__component') return { path, message: m.required(yupPath(path)), name: 'ValidationError', value: undefined };
  const properties = (e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  const type = annotationOf(properties?.[missing]).type ?? 'mixed';
  return { path, message: notTypeMessage(yupPath(path), type, null), name: 'ValidationError', value: null };
}

function mapOne(e: ErrorObject, failed: FailedCasts): FieldError | null {
  const segments = segmentsOf(e.instancePath);
  if (e.keyword === 'required') return mapRequired(e, segments);
  const path = yupPath(segments);
  const a = annotationOf(e.parentSchema);
  const params = e.params as { limit?: number };
  const limit = Number(params.limit);
  const error = (message: string, value: unknown = e.data): FieldError => ({ path: segments, message, name: 'ValidationError', value });
  switch (e.keyword) {
    case 'type':
      if (failed.has(e.instancePath)) return error(notTypeMessage(path, 'number', NaN, failed.get(e.instancePath)), null);
      return error(notTypeMessage(path, a.type ?? 'mixed', e.data));
    case 'not':
      return error(notTypeMessage(path, 'mixed', null), null);
    case 'enum':
      return error(m.oneOf(path, a.text ?? ''));
    case 'minLength':
      return error(a.kind === 'notEmpty' ? m.notEmpty(path) : m.minLength(path, limit));
    case 'maxLength':
      return error(m.maxLength(path, limit));
    case 'pattern':
      if (a.kind === 'email') return error(m.email(path));
      if (a.kind === 'biginteger') return error(notTypeMessage(path, 'mixed', e.data));
      return error(m.matches(path, a.text ?? ''));
    case 'multipleOf':
      return error(m.integer(path));
    case 'minimum':
      return error(m.min(path, limit));
    case 'maximum':
      return error(m.max(path, limit));
    case 'minItems':
      return error(m.minItems(path, limit));
    case 'maxItems':
      return error(m.maxItems(path, limit));
    case 'if':
      return null; // "must match then schema": the failing `then` keyword is reported by itself
    default:
      return error(`${path} is invalid`);
  }
}

/**
 * Turns ajv's errors (allErrors + verbose) into Strapi's `details.errors` entries, with yup's messages.
 * Duplicates (same path and message) are reported once.
 */
export function mapAjvErrors(errors: readonly ErrorObject[], failed: FailedCasts): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const mapped = mapOne(e, failed);
    if (!mapped) continue;
    const key = `${mapped.path.join('\u0000')}\u0001${mapped.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(mapped);
  }
  return out;
}
