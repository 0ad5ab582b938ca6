import { ValidationError } from '../errors';
import type { Attributes } from '../schema';
import { asList } from './as-list';
import { invalidKey, type ParseScope } from './parse-scope';
import { resolveAttribute } from './resolve-attribute';

const INVALID_FIELDS = 'Invalid fields parameter. Expected a string or an array of strings';

/**
 * Validates a `fields` parameter (`'title'`, `'title,views'`, `['title', 'views']`, `'*'`) against
 * `attributes`. Returns the scalar field names, or null for all (`*`). Relations, components, private and
 * unknown names are `Invalid key`; anything but strings is Strapi's "Invalid fields parameter".
 *
 * @example
 * parseFields(scope, article.attributes, 'title,views'); // ['title', 'views']
 */
export function parseFields(scope: ParseScope, attributes: Attributes, raw: unknown): string[] | null {
  const list = typeof raw === 'string' ? [raw] : asList(raw);
  if (!list || list.some((item) => typeof item !== 'string')) throw new ValidationError(INVALID_FIELDS);
  const names = (list as string[]).flatMap((item) => item.split(',')).map((name) => name.trim()).filter((name) => name !== '');
  if (names.includes('*')) return null;
  const out: string[] = [];
  for (const name of names) {
    const attribute = resolveAttribute(scope, attributes, name, null);
    if (attribute.kind !== 'scalar') throw invalidKey(scope, name, name);
    if (!out.includes(name)) out.push(name);
  }
  return out;
}
