import type { ErrorObject } from 'ajv';
import { unknownKeyMessage } from './did-you-mean';

/** `/rest/maxLimit` -> `options.rest.maxLimit`; `/apiTokens/0/type` -> `auth.apiTokens[0].type`. */
export function fieldPath(root: string, pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : `${acc}.${part}`), root);
}

function knownKeys(error: ErrorObject): string[] {
  const parent = error.parentSchema as { properties?: Record<string, unknown> } | undefined;
  return Object.keys(parent?.properties ?? {});
}

/**
 * One ajv error (compiled with `verbose: true`, so `parentSchema` is there) as a sentence naming the field:
 * an unknown key gets its path, a did-you-mean and the allowed keys; an enum error lists the allowed values.
 *
 * @example
 * ajvErrorMessage('options', error); // 'options.restt: unknown option (did you mean "rest"?); allowed: ...'
 */
export function ajvErrorMessage(root: string, error: ErrorObject, what = 'key'): string {
  const where = fieldPath(root, error.instancePath);
  switch (error.keyword) {
    case 'additionalProperties':
      return unknownKeyMessage(where, String(error.params.additionalProperty), knownKeys(error), what);
    case 'enum':
      return `${where} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${where} must be ${JSON.stringify(error.params.allowedValue)}`;
    default:
      return `${where} ${error.message ?? 'is invalid'}`;
  }
}

/**
 * The most useful of several ajv errors: an unknown key or an enum first (they say what to write instead), then
 * the deepest path. `anyOf` summaries are skipped when a branch said more.
 */
export function pickAjvError(errors: readonly ErrorObject[]): ErrorObject | undefined {
  const rank = (e: ErrorObject): number => (e.keyword === 'additionalProperties' ? 0 : e.keyword === 'enum' ? 1 : e.keyword === 'anyOf' ? 3 : 2);
  return [...errors].sort((a, b) => rank(a) - rank(b) || b.instancePath.length - a.instancePath.length)[0];
}
