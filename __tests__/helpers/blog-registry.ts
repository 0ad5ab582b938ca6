import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRegistry, type Registry } from '../../lib/schema';

/** Where the blog model lives: the project's copy if present, else the shared fixtures. */
const CANDIDATES = [join(__dirname, '..', 'fixtures', 'blog'), join(__dirname, '..', '..', '..', 'shared', 'fixtures', 'blog')];

function blogDir(): string {
  for (const dir of CANDIDATES) {
    try {
      readdirSync(join(dir, 'content-types'));
      return dir;
    } catch {
      // try the next one
    }
  }
  throw new Error(`blog fixtures not found in ${CANDIDATES.join(' or ')}`);
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

/**
 * The blog model of the conformance corpus (article, author, category, global, about and the shared
 * components) as a registry, with locales en (default) and fr.
 *
 * @example
 * const registry = loadBlogRegistry();
 * const article = registry.contentType('api::article.article');
 */
export function loadBlogRegistry(): Registry {
  const dir = blogDir();
  const typesDir = join(dir, 'content-types');
  const contentTypes = readdirSync(typesDir).filter((f) => f.endsWith('.json')).sort().map((f) => readJson(join(typesDir, f)));
  const components: Record<string, unknown> = {};
  const componentsDir = join(dir, 'components');
  for (const category of readdirSync(componentsDir)) {
    for (const file of readdirSync(join(componentsDir, category)).filter((f) => f.endsWith('.json'))) {
      components[`${category}.${file.replace(/\.json$/, '')}`] = readJson(join(componentsDir, category, file));
    }
  }
  return createRegistry({ contentTypes, components, i18n: { locales: ['en', 'fr'], defaultLocale: 'en' } });
}
