import { loadBlogModel } from '../../examples/blog/model';
import { createRegistry, type Registry } from '../../lib/schema';

/**
 * The blog model of the conformance corpus (article, author, category, global, about and the shared
 * components) as a registry, with locales en (default) and fr. It reads the repository's own copy
 * (examples/blog/model, compared with ../shared/fixtures/blog by conformance/copies.test.ts when that exists),
 * so the tests pass on a clone alone.
 *
 * @example
 * const registry = loadBlogRegistry();
 * const article = registry.contentType('api::article.article');
 */
export function loadBlogRegistry(): Registry {
  const { contentTypes, components } = loadBlogModel();
  return createRegistry({ contentTypes, components, i18n: { locales: ['en', 'fr'], defaultLocale: 'en' } });
}
