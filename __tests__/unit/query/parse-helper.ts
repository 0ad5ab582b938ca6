import { ApplicationError } from '../../../lib/errors';
import { parseQuery, type Query } from '../../../lib/query';
import { loadBlogRegistry } from '../../helpers/blog-registry';

export const registry = loadBlogRegistry();
export const article = registry.contentType('api::article.article');
export const author = registry.contentType('api::author.author');
export const category = registry.contentType('api::category.category');
export const about = registry.contentType('api::about.about');
export const global = registry.contentType('api::global.global');

/** The public role of the corpus: no `find` on author (nor on upload files, which Strapi does not check). */
export const PUBLIC_TYPES = new Set(['api::article.article', 'api::category.category', 'api::global.global', 'api::about.about']);

export interface ParseOptions {
  uid?: string;
  public?: boolean;
  action?: 'find' | 'findOne' | 'write';
}

/** Parses `raw` on the article type (or `uid`) for a caller that can find everything (or the public role). */
export function parse(raw: string, options: ParseOptions = {}): Query {
  return parseQuery({
    registry,
    contentType: registry.contentType(options.uid ?? 'api::article.article'),
    rawQuery: raw,
    context: { canFind: (uid) => !options.public || PUBLIC_TYPES.has(uid) },
    rest: { defaultLimit: 25, maxLimit: 100 },
    action: options.action ?? 'find',
  });
}

/** The error `parse` throws, as `{ name, message, details }` (or 'no error'). */
export function parseError(raw: string, options: ParseOptions = {}): unknown {
  try {
    parse(raw, options);
    return 'no error';
  } catch (error) {
    if (error instanceof ApplicationError) return { name: error.name, message: error.message, details: error.details };
    return { crash: String(error) };
  }
}

/** `Invalid key` details as Strapi sends them. */
export function invalidKey(key: string, path: string | null, param: string): unknown {
  const message = path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`;
  return { name: 'ValidationError', message, details: { key, path, source: 'query', param } };
}
