import { createRegistry } from '../../../lib/schema';
import type { Registry } from '../../../lib/schema';
import { loadBlogModel } from '../../../examples/blog/model';

/** The blog model of the conformance corpus (examples/blog/model), with locales en (default) and fr. */
export function blogRegistry(): Registry {
  const { contentTypes, components } = loadBlogModel();
  return createRegistry({ contentTypes, components, i18n: { locales: ['en', 'fr'], defaultLocale: 'en' } });
}
